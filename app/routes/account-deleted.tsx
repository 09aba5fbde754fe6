import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import * as prose from "~/app/components/prose.css";
import { formPageMeta } from "~/app/lib/forms/meta";
import { ACCOUNT_DELETED } from "~/app/lib/privacy/messages";

/** Where "Delete my account" ends (ADR 089): the same for anyone, since it names no one. */
export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: ACCOUNT_DELETED,
    description: "Your Meridian Review account and the personal data that went with it have been deleted.",
    path: "/account-deleted",
    nofollow: true,
  });

export default function AccountDeleted() {
  return (
    <div className={prose.narrow}>
      <h1>{ACCOUNT_DELETED}</h1>
      <p role="status">
        We have deleted your account and the personal data that went with it, and signed you out everywhere. A confirmation is on its way to
        the e-mail address the account had: it is the last message we send there.
      </p>
      <p>
        Your orders and invoices stay in our books, as the law requires, made out to your name and address but tied to no account. You can{" "}
        <Link to="/register">register again</Link> with the same address whenever you like, or go on reading{" "}
        <Link to="/">Meridian Review</Link> as a guest.
      </p>
    </div>
  );
}
