import type { MetaFunction } from "@remix-run/node";
import * as prose from "~/app/components/prose.css";
import { RESTRICTED_USER } from "~/app/lib/accounts/messages";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";

export const meta: MetaFunction = ({ matches }) => [
  ...seo({ title: "Account restricted", description: RESTRICTED_USER, path: "/restricted-user", siteUrl: siteUrlFrom(matches) }),
  { name: "robots", content: "noindex" },
];

/** Where registration sends an address the publisher has blocked (spec: 403 at registration). */
export default function RestrictedUser() {
  return (
    <div className={prose.narrow}>
      <h1>Account restricted</h1>
      <p>{RESTRICTED_USER}</p>
      <p>
        Customer Service is available 24/7: {CUSTOMER_SERVICE.phoneUsCanada} (US and Canada), {CUSTOMER_SERVICE.phoneInternational}{" "}
        (international), <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>.
      </p>
    </div>
  );
}
