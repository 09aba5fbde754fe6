import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "./desk.css";

/**
 * A desk page: the band naming the desk (a link home, except on the home page) and, inside the
 * desk, a button to leave it; then the page's heading and content.
 */
export function DeskPage({
  title,
  home = false,
  inside = true,
  children,
}: {
  title: string;
  home?: boolean;
  inside?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={css.page}>
      <div className={css.band}>
        {home ? (
          <span className={css.crumb}>The desk</span>
        ) : (
          <Link to="/desk" className={css.crumb}>
            The desk
          </Link>
        )}
        {inside ? (
          <Form method="post" action="/desk">
            <input type="hidden" name="intent" value="leave" />
            <button type="submit" className={forms.secondaryButton}>
              Leave the desk
            </button>
          </Form>
        ) : null}
      </div>
      <h1 className={css.heading}>{title}</h1>
      {children}
    </div>
  );
}
