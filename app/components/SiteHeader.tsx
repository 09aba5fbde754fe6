import { Form, NavLink, Link, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { SITE_NAME } from "../lib/site";
import { useRootData } from "../lib/root-data";
import * as css from "./layout.css";
import { SearchBox } from "./SearchBox";
import { MiniCart } from "./store/MiniCart";

export const SECTIONS = [
  { to: "/the-latest", label: "The Latest" },
  { to: "/topics", label: "Topics" },
  { to: "/magazine", label: "Magazine" },
  { to: "/video", label: "Video" },
  { to: "/podcasts", label: "Podcasts" },
  { to: "/big-ideas", label: "Big Ideas" },
  { to: "/ascend", label: "Ascend" },
  { to: "/visual-library", label: "Visual Library" },
  { to: "/webinars", label: "Webinars" },
  { to: "/hbr-analytic-services", label: "Analytic Services" },
  { to: "/store", label: "Store" },
] as const;

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

/** Sign-in and registration links for guests; the reader's name, account and "Log out" once signed in. */
function UserMenu() {
  const root = useRootData();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const back = encodeURIComponent(here);
  if (!root?.user) {
    return (
      <>
        <Link to="/subscriptions">Subscribe</Link>
        <Link to={`/sign-in?redirectTo=${back}`} rel="nofollow" data-modal="sign-in">
          Sign In
        </Link>
        <Link to={`/register?redirectTo=${back}`} rel="nofollow" data-modal="registration">
          Register
        </Link>
      </>
    );
  }
  const caption = root.subscriber?.caption;
  return (
    <>
      {root.subscriber ? null : <Link to="/subscriptions">Subscribe</Link>}
      <Link to="/my-library">My Library</Link>
      <FollowingLink unread={root.user.unreadFollowing} />
      <Link to="/my-account" aria-label={`My account: ${root.user.name}${caption ? `, ${caption} subscriber` : ""}`}>
        {root.user.name}
        {caption ? <span className={css.caption}> {caption}</span> : null}
      </Link>
      <Form method="post" action={`/logout?return=${back}`} className={css.inlineForm}>
        <button type="submit" className={css.linkButton}>
          Log out
        </button>
      </Form>
    </>
  );
}

/** The following stream, with the number of new articles in followed topics. */
function FollowingLink({ unread }: { unread: number }) {
  return (
    <Link to="/my-library/topics" data-unread-following={unread}>
      Following
      {unread > 0 ? (
        <span className={css.caption}>
          {" "}
          {unread}
          <span className="visually-hidden"> new</span>
        </span>
      ) : null}
    </Link>
  );
}

export function SiteHeader() {
  useScrollFlags();
  return (
    <header className={css.header} data-site-header="">
      <div className={`${css.page} ${css.headerBar}`}>
        <Link to="/" className={css.logo}>
          {SITE_NAME}
        </Link>
        <div className={css.headerTools}>
          <SearchBox />
          <MiniCart />
          <UserMenu />
        </div>
      </div>
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
    </header>
  );
}
