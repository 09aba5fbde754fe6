import { Link, NavLink } from "@remix-run/react";
import { useReturnPath } from "~/app/lib/accounts/return-path";
import { Disclosure } from "./Disclosure";
import * as css from "./layout.css";
import { SECTIONS } from "./sections";
import { UserMenu } from "./UserMenu";
import { useHydrated } from "./useHydrated";

/** The reader's links and every section: the phone header's menu, and the page /menu. */
export function SiteMenuContent({ returnTo }: { returnTo?: string }) {
  return (
    <>
      <div className={css.menuAccount}>
        <UserMenu returnTo={returnTo} />
      </div>
      <ul className={css.menuSections} aria-label="Sections">
        {SECTIONS.map((s) => (
          <li key={s.to}>
            <NavLink to={s.to} className={css.menuSection}>
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The phone header's menu button: a link to /menu without JS, a disclosure with it. */
export function SiteMenuToggle() {
  const hydrated = useHydrated();
  const back = useReturnPath();
  const label = (
    <>
      <MenuIcon />
      <span className={css.menuWord}>Menu</span>
    </>
  );
  if (!hydrated) {
    return (
      <Link to={`/menu?return=${encodeURIComponent(back)}`} className={css.menuToggle} rel="nofollow">
        {label}
      </Link>
    );
  }
  return (
    <Disclosure id="site-menu" label={label} className={{ holder: css.menuHolder, button: css.menuToggle, panel: css.menuPanel }}>
      <SiteMenuContent />
    </Disclosure>
  );
}

function MenuIcon() {
  return (
    <svg className={css.menuIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d="M2 4.5h16M2 10h16M2 15.5h16" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
