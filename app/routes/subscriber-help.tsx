import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import * as prose from "~/app/components/prose.css";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";
import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Subscriber help",
    description: "Answers to common questions about your Meridian Review account and subscription, and how to reach Customer Service.",
    path: "/subscriber-help",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("subscriber-help"),
  });

export default function SubscriberHelp() {
  return (
    <article className={prose.narrow}>
      <h1>Subscriber help</h1>
      <h2>I forgot my password</h2>
      <p>
        Use <Link to="/forgot-password">reset your password</Link>. We email a link that works once, for an hour. If no email arrives within
        a few minutes, check your spam folder, then contact us.
      </p>
      <h2>My account is blocked</h2>
      <p>
        After several wrong passwords in a row we pause sign-in for that address for a while; the message on the sign-in page says how long.
        Repeated pauses lock it for a day, which a password reset does not lift.
      </p>
      <h2>I subscribe to the print edition</h2>
      <p>
        Register with the email address on your subscription: we will ask for the account number on your mailing label and connect the two,
        so your subscription also opens everything on the web site.
      </p>
      <h2 id="contact-customer-service">Contact Customer Service</h2>
      <p>We answer 24 hours a day, every day.</p>
      <ul>
        <li>US and Canada: {CUSTOMER_SERVICE.phoneUsCanada}</li>
        <li>International: {CUSTOMER_SERVICE.phoneInternational}</li>
        <li>
          Email: <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>
        </li>
      </ul>
    </article>
  );
}
