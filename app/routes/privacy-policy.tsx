import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import * as prose from "~/app/components/prose.css";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
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

export default function PrivacyPolicy() {
  return (
    <article className={prose.narrow}>
      <h1>Privacy policy</h1>
      <p className={prose.lede}>
        We keep what we need to run your account and your subscription, and nothing we would be embarrassed to show you.
      </p>

      <h2>What we record</h2>
      <ul>
        <li>
          Your account: name, email address, a one-way hash of your password (never the password itself), and the optional profile answers
          you give (industry, job title, company size).
        </li>
        <li>
          Your sessions: a random identifier in a cookie, so you stay signed in. We store only a hash of it, and it ends when you sign out,
          when you change or reset your password, or after 30 days.
        </li>
        <li>
          Security records: failed sign-in attempts for an address and counts of requests, kept for the length of a lockout or a rate-limit
          window, so nobody can guess passwords.
        </li>
        <li>Your choices: text size and, if you allow it, email newsletters.</li>
      </ul>

      <h2>Cookies</h2>
      <p>
        We set only cookies that the site needs to work: the session cookie that keeps you signed in, a visitor cookie that counts the free
        articles you have read this month, cookies that hold a guest's cart, delivery estimate and orders while you shop, and a preference
        cookie for text size. We use no advertising cookies and load nothing from other companies' servers while you read.
      </p>

      <h2>Email</h2>
      <p>
        We send account messages (such as password reset links and order receipts) when you ask for them or buy something. Newsletters go
        only to readers who sign up for them, and every issue has a link to stop it. If you tick the box for email updates when you
        register, we keep your choice; to withdraw it, write to Customer Service at the address below.
      </p>

      <h2>Your rights</h2>
      <p>
        You can see and change your profile on <Link to="/my-account">My account</Link>. To get a copy of what we hold, or to have your
        account deleted, write to <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>; we answer within 30 days.
      </p>
    </article>
  );
}
