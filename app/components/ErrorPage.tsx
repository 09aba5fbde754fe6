import { Link } from "@remix-run/react";
import { CUSTOMER_SERVICE, GENERIC_ERROR } from "~/app/lib/forms/cross-site";
import * as css from "./prose.css";

const COPY: Record<number, { heading: string; body: string }> = {
  400: { heading: "Bad request", body: "The address or form you sent could not be understood." },
  403: { heading: "Access denied", body: "You do not have permission to see this page." },
  404: { heading: "Page not found", body: "We could not find the page you asked for. It may have moved, or the address may be mistyped." },
  405: { heading: "Method not allowed", body: "This page cannot be used that way." },
  410: { heading: "Article withdrawn", body: "This article has been withdrawn and is no longer available." },
};

export function errorTitle(status: number): string {
  return COPY[status]?.heading ?? "Something went wrong";
}

/** `message` replaces the status's usual sentence when the refusal has a reason of its own. */
export function ErrorPage({ status, message }: { status: number; message?: string }) {
  const copy = COPY[status];
  return (
    <div className={css.narrow}>
      <h1>{errorTitle(status)}</h1>
      <p>{message ?? copy?.body ?? GENERIC_ERROR}</p>
      <p>
        Customer Service: {CUSTOMER_SERVICE.phoneUsCanada} (US and Canada), {CUSTOMER_SERVICE.phoneInternational} (international),{" "}
        <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>.
      </p>
      <p>
        <Link to="/">Go to the home page</Link> or browse <Link to="/the-latest">The Latest</Link>.
      </p>
    </div>
  );
}
