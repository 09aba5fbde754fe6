import { Link } from "@remix-run/react";
import type { Region } from "~/server/adapters/geo";
import { lazy } from "react";
import { primaryButton } from "./controls.css";
import { Deferred } from "./Deferred";
import * as css from "./paywall.css";
import type { WallScreen } from "./WallForm";

const WallForm = lazy(() => import("./WallForm"));

export const REGISTRATION_WALL_TITLE = "Do you want to keep reading Meridian Review for free?";
export const COOKIES_NEEDED =
  "Free articles need cookies: your browser did not keep ours, so we cannot count your free reads. Allow cookies for this site and reload the page, or sign in.";
export const SUBSCRIBE_WALL_TITLE = "You have read all of your free articles this month.";

const WALL_SCREENS: { screen: WallScreen; label: string }[] = [
  { screen: "registration", label: "Create an account" },
  { screen: "sign-in", label: "Already registered? Sign in" },
  { screen: "forgot-password", label: "Forgot your password?" },
];

/** The subscribe wall: for registered readers whose meter has run out. */
export function SubscribeWall({ firstName, abTag }: { firstName: string | null; abTag: string }) {
  return (
    <section className={css.wall} id="paywall" aria-labelledby="paywall-title" data-wall="subscribe">
      {firstName ? <p className={css.greeting}>Thanks for reading, {firstName}.</p> : null}
      <h2 id="paywall-title" className={css.title}>
        {SUBSCRIBE_WALL_TITLE}
      </h2>
      <p className={css.dek}>Subscribe for unlimited access to every article, video and podcast, and the magazine archive since 1956.</p>
      <p className={css.subDek}>Plans start at $12.00 a month, with nothing renewing by itself.</p>
      <Link className={primaryButton} to={`/subscriptions?ab=${encodeURIComponent(abTag)}`}>
        Subscribe
      </Link>
    </section>
  );
}

/**
 * The registration wall, for guests whose meter has run out: a working registration form (or
 * the sign-in and forgot-password screens, chosen by the `paywall` query value) that brings the
 * reader back to this article.
 */
export function RegistrationWall({
  articleUrl,
  screen,
  region,
  abTag,
  cookiesRefused = false,
}: {
  articleUrl: string;
  screen: WallScreen;
  region: Region;
  /** The wall's A/B tag, which its registration form carries for the meter funnel (ADR 090). */
  abTag: string;
  /** The browser sent back no cookie: the meter cannot count its free reads. */
  cookiesRefused?: boolean;
}) {
  const screenUrl = (s: WallScreen) => (s === "registration" ? `${articleUrl}#paywall` : `${articleUrl}?paywall=${s}#paywall`);
  return (
    <section className={css.wall} id="paywall" aria-labelledby="paywall-title" data-wall="registration" data-screen={screen}>
      <h2 id="paywall-title" className={css.title}>
        {REGISTRATION_WALL_TITLE}
      </h2>
      <p className={css.dek}>
        Create a free account to read more articles every month, save them to your library and follow the topics you care about.
      </p>
      {cookiesRefused ? (
        <p className={css.subDek} data-cookies-needed="">
          {COOKIES_NEEDED}
        </p>
      ) : null}
      <nav aria-label="Account options">
        <ul className={css.tabs}>
          {WALL_SCREENS.filter((s) => s.screen !== screen).map((s) => (
            <li key={s.screen}>
              <Link to={screenUrl(s.screen)} preventScrollReset>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Deferred fallback={<p>Loading the form…</p>}>
        <WallForm key={screen} screen={screen} articleUrl={articleUrl} region={region} abTag={abTag} />
      </Deferred>
    </section>
  );
}
