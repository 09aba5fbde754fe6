import { Link } from "@remix-run/react";
import { CUSTOMER_SERVICE, SITE_NAME } from "~/app/lib/forms/cross-site";
import { SECTIONS } from "./sections";
import * as css from "./layout.css";

export function SiteFooter() {
  return (
    <footer className={css.footer} data-site-footer="">
      <div className={css.page}>
        <nav aria-label="Footer">
          <ul className={css.footerLinks}>
            <li>
              <Link className={css.footerLink} to="/">
                Home
              </Link>
            </li>
            {SECTIONS.map((s) => (
              <li key={s.to}>
                <Link className={css.footerLink} to={s.to}>
                  {s.label}
                </Link>
              </li>
            ))}
            <li>
              <Link className={css.footerLink} to="/search">
                Search
              </Link>
            </li>
            <li>
              <Link className={css.footerLink} to="/email-newsletters">
                Email Newsletters
              </Link>
            </li>
            <li>
              <a className={css.footerLink} href="/feeds/latest.xml">
                RSS feed
              </a>
            </li>
            <li>
              <Link className={css.footerLink} to="/privacy-policy">
                Privacy policy
              </Link>
            </li>
          </ul>
        </nav>
        <p>
          Customer Service, 24/7: {CUSTOMER_SERVICE.phoneUsCanada} (US and Canada), {CUSTOMER_SERVICE.phoneInternational} (international),{" "}
          <a className={css.footerLink} href={`mailto:${CUSTOMER_SERVICE.email}`}>
            {CUSTOMER_SERVICE.email}
          </a>
        </p>
        <p>
          © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
