import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import * as prose from "~/app/components/prose.css";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { useRootData } from "~/app/lib/http/root-data";
import { SITE_COOKIES } from "~/app/lib/privacy/cookies";
import { DELETE_MY_ACCOUNT, DOWNLOAD_MY_DATA } from "~/app/lib/privacy/messages";
import { pageCard } from "~/shared/page-cards";
import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Privacy policy",
    description: "What Meridian Review records about readers, why, how long we keep it, and how to see or delete it.",
    path: "/privacy-policy",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("privacy-policy"),
  });

// Every statement here is about what the site does (ADR 089): the cookies come from the list
// tests/unit/site-cookies.test.ts holds to the code, and the rights from My account's pages.

export default function PrivacyPolicy() {
  const captcha = Boolean(useRootData()?.captcha);
  return (
    <article className={prose.narrow}>
      <h1>Privacy policy</h1>
      <p className={prose.lede}>
        We keep what we need to run your account, your subscription and your orders, and nothing we would be embarrassed to show you. You
        can see all of it, take it with you, or have it deleted, from <Link to="/my-account">My account</Link>.
      </p>

      <h2>What we record</h2>
      <ul>
        <li>
          Your account: name, email address, a one-way hash of your password (never the password itself), whether you agreed to email
          updates, and the optional profile answers you give (industry, job title, company size).
        </li>
        <li>
          Your sessions: a random identifier in a cookie keeps you signed in. We store only a hash of it, with when it started and the
          browser that started it (its user agent). A session ends when you sign out, when you change or reset your password, or after 30
          days.
        </li>
        <li>
          Security records: failed sign-in attempts for an address, and counts of requests per address and per network address, kept for the
          length of a lockout or a rate-limit window, so nobody can guess passwords.
        </li>
        <li>
          What you keep and follow: the topics, newsletters and campaigns you follow, the folders and items in My Library, your notes on
          articles, what you have read, watched and shared (for a page shared by email, how many people it went to), and the gift links you
          made.
        </li>
        <li>
          The meter: which free articles you read this month. For a guest it is kept under the visitor cookie, with the network address the
          read came from (a limit per network stops cleared cookies from resetting it). Reads are deleted once their month is over.
        </li>
        <li>
          Where you are: for the registration form, we look up the country of your network address to choose how we ask about email updates,
          and keep that address with its country for 30 days so we need not ask again.
        </li>
        <li>
          What you buy: orders (the items, amounts and the delivery address), addresses you save, your cart, your subscriptions and
          invoices, with the billing country and state and any company name and tax id you give. Cards are handled by our payment provider:
          we see and keep only their brand and last four digits.
        </li>
        <li>
          Mail: the address, subject and time of every message we send (never its content), so that Customer Service can tell you what we
          sent.
        </li>
        <li>Customer Service: what our staff did on your account at your request, and the reason they gave.</li>
      </ul>

      <h2>Cookies</h2>
      <p>
        We set only cookies that the site needs to do what you ask of it: to keep you signed in, to count the sample of free articles you
        read before registering or subscribing, to hold your cart and orders while you shop, and to remember a display choice. None is for
        advertising, analytics or tests of one offer against another, so we set them without asking first, in the European Union as anywhere
        else. These are all of them:
      </p>
      <ul>
        {SITE_COOKIES.map((cookie) => (
          <li key={cookie.name}>
            <code>{cookie.name}</code>: {cookie.purpose} Kept for {cookie.lasts}.
          </li>
        ))}
      </ul>
      <p>
        Each page carries a summary of your account for analytics (a &ldquo;data layer&rdquo;: whether you are signed in or subscribe, your
        account id and email address, your free articles left, what you follow). It is part of the page you are reading, sets no cookie, and
        the site sends it nowhere. Links to our subscription offers may carry a tag (<code>?ab=</code>) saying which offer you came from; it
        is recorded with a subscription checkout you start, never in a cookie. We load nothing from other companies&rsquo; servers while you
        read
        {captcha
          ? ". On the sign-in, registration and forgot-password pages we use Google reCAPTCHA to tell people from automated attacks: those pages load it from Google, which may set cookies of its own for that purpose."
          : "."}
      </p>

      <h2>Email</h2>
      <p>
        We send account messages (such as password reset links, receipts and order updates) when you ask for them or buy something.
        Newsletters go only to readers who sign up for them, and every issue has a link to stop it. If you tick the box for email updates
        when you register, we keep your choice; to withdraw it, write to Customer Service at the address below.
      </p>

      <h2>Your rights</h2>
      <ul>
        <li>
          <strong>See and correct:</strong> your profile is on <Link to="/my-account">My account</Link>, where you can change it.
        </li>
        <li>
          <strong>Take a copy:</strong> <Link to="/my-account/data">{DOWNLOAD_MY_DATA}</Link> shows everything we hold about you, and gives
          it as a file (JSON) you can keep or take elsewhere. It never includes your password or the secret parts of your sign-in.
        </li>
        <li>
          <strong>Delete:</strong> <Link to="/my-account/delete">{DELETE_MY_ACCOUNT}</Link>, after entering your password again, erases your
          account and what we hold about you at once, signs you out everywhere, and mails you a confirmation; your email address can then be
          used to register again. The law requires us to keep the records of what you bought: your orders and invoices stay, made out to
          your name and address, but tied to no account, and we do not email you about them again. A subscription that still renews must be
          cancelled first.
        </li>
        <li>
          <strong>Anything else</strong>, or if you cannot sign in: write to{" "}
          <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>; we answer within 30 days.
        </li>
      </ul>
    </article>
  );
}
