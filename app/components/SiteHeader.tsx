import { NavLink, Link } from "@remix-run/react";
import { useEffect } from "react";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import * as css from "./layout.css";
import { SearchBox } from "./SearchBox";
import { SECTIONS } from "./sections";
import { SiteMenuToggle } from "./SiteMenu";
import { MiniCart } from "./store/MiniCart";
import { UserMenu } from "./UserMenu";

/** How far back past its threshold the reader must scroll before a flag turns off again. */
export const SCROLL_HYSTERESIS = 60;

/**
 * The header's scroll flags at `y` (spec: small logo after scrolling; thresholds 100/250 px on
 * desktop, 90/200 px on mobile). A flag turns on past its threshold and off only once the page is
 * back above it by SCROLL_HYSTERESIS: the header shrinks as the first flag turns on, which moves
 * the page, and without the margin it flipped between its sizes every frame near the threshold.
 */
export function scrollFlags(y: number, desktop: boolean, was: { scrolled: boolean; far: boolean }) {
  const [near, far] = desktop ? [100, 250] : [90, 200];
  const flag = (on: boolean, threshold: number) => (on ? y > threshold - SCROLL_HYSTERESIS : y > threshold);
  return { scrolled: flag(was.scrolled, near), far: flag(was.far, far) };
}

function useScrollFlags() {
  useEffect(() => {
    const root = document.documentElement;
    let pending = false;
    const update = () => {
      pending = false;
      const desktop = window.matchMedia("(min-width: 1025px)").matches;
      const was = { scrolled: root.hasAttribute("data-scrolled"), far: root.hasAttribute("data-scrolled-far") };
      const now = scrollFlags(window.scrollY, desktop, was);
      root.toggleAttribute("data-scrolled", now.scrolled);
      root.toggleAttribute("data-scrolled-far", now.far);
    };
    const onScroll = () => {
      if (!pending) {
        pending = true;
        window.setTimeout(update, 125);
      }
    };
    update();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
}

/**
 * The masthead: logo, search, cart and the reader's links, then the section nav. On a phone only
 * the logo row stays on screen when the page scrolls, and the reader's links move into the menu.
 */
export function SiteHeader() {
  useScrollFlags();
  return (
    <div className={css.masthead}>
      <header className={css.header} data-site-header="">
        <div className={`${css.page} ${css.headerBar}`}>
          <Link to="/" className={css.logo}>
            {SITE_NAME}
          </Link>
          <div className={css.headerTools}>
            <SearchBox />
            <MiniCart />
            <div className={css.userLinks}>
              <UserMenu inRow />
            </div>
            <SiteMenuToggle />
          </div>
        </div>
      </header>
      <nav aria-label="Sections" className={css.nav}>
        <ul className={`${css.page} ${css.navList}`}>
          {SECTIONS.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} className={css.navLink} prefetch="intent">
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
