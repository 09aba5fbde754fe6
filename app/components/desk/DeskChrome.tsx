import { Form, Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import type { RootData } from "~/app/lib/http/root-data";
import * as css from "./DeskChrome.css";

/**
 * The desk's own frame, in place of the site's header and footer: the desk's name, its areas for
 * the staff member's roles, who is at the desk, the way back to the site, and leaving.
 */
export function DeskChrome({ desk, children }: { desk: NonNullable<RootData["desk"]>; children: ReactNode }) {
  return (
    <>
      <header className={css.bar}>
        <div className={css.inner}>
          <Link to="/desk" className={css.name}>
            Meridian Review <span className={css.desk}>Desk</span>
          </Link>
          <nav aria-label="Desk" className={css.nav}>
            <ul className={css.navList}>
              {desk.nav.map((item) => (
                <li key={item.path}>
                  <NavLink to={item.path} className={({ isActive }) => (isActive ? css.current : css.navLink)}>
                    {item.title}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className={css.who}>
            <Link to="/desk/security" className={css.navLink}>
              {desk.name}
            </Link>
            <a href="/" className={css.navLink}>
              View the site
            </a>
            <Form method="post" action="/desk">
              <input type="hidden" name="intent" value="leave" />
              <button type="submit" className={css.leave}>
                Leave the desk
              </button>
            </Form>
          </div>
        </div>
      </header>
      <main id="main" className={css.main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
