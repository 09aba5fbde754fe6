import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "./lib/http/responses.server";
import { isRouteErrorResponse, Links, Outlet, Scripts, ScrollRestoration, useLocation, useMatches, useRouteError } from "@remix-run/react";
import { Suspense, useEffect, type ReactNode } from "react";
import { useHydrated } from "./components/useHydrated";
import { Deferred } from "./components/Deferred";
import { lazyEnhancement } from "./lib/http/lazy-enhancement";
import { onboardingDue } from "./lib/accounts/onboarding";
import "./styles/global.css";
import { captcha } from "~/server/adapters/captcha";
import { PersistentBanner } from "./components/PersistentBanner";
import { PrintOnRequest } from "./components/PrintOnRequest";
import { DocumentMeta } from "./components/DocumentMeta";
import { ErrorPage, errorTitle } from "./components/ErrorPage";
import { DeskChrome } from "./components/desk/DeskChrome";
import { SiteFooter } from "./components/SiteFooter";
import { SiteHeader } from "./components/SiteHeader";
import { useTextSize } from "./components/TextSizeToggle";
import * as css from "./components/layout.css";
import { analyticsDataLayer, layerQuota, type AnalyticsDataLayer } from "~/server/readers/analytics";
import { isArticlePath } from "~/shared/urls";
import { dismissedItems, type Dismissible } from "~/server/readers/dismissals";
import { followingSummary } from "~/server/library/follows";
import { visitorKey } from "~/server/readers/keys";
import { deskNavigation } from "~/server/desk/roles";
import { storeMaintenance } from "~/server/store/maintenance";
import { config } from "./lib/context/db.server";
import { completePendingCheckout } from "./lib/store/payments.server";
import { offerRules } from "./lib/paywall/article-access.server";
import { requestContext } from "./lib/context/request-context.server";
import { miniCart } from "./lib/store/mini-cart.server";
import { useNonce } from "./lib/http/nonce";
import { siteStylesheetHref } from "./lib/http/stylesheet";
import { useRootData, type RootData } from "./lib/http/root-data";
import { readTextSize } from "./lib/accounts/preferences.server";
import { scriptJson } from "./lib/http/script-json";
import { layerForPage, pageMeter } from "./lib/http/analytics-layer";
import { isMark } from "./lib/http/reader-marks";
import { CROSS_SITE_REFUSED, SITE_NAME } from "./lib/forms/cross-site";

export const links: LinksFunction = () => {
  const stylesheet = siteStylesheetHref();
  return [...(stylesheet ? [{ rel: "stylesheet", href: stylesheet }] : []), { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];
};

export const meta: MetaFunction = ({ error }) => {
  if (!error) return [];
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return [{ title: `${errorTitle(status)} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  // A voucher_code on any page starts redeeming that voucher (spec 2).
  const voucher = new URL(request.url).searchParams.get("voucher_code");
  if (voucher !== null && new URL(request.url).pathname !== "/redeem")
    throw redirect(`/redeem?voucher_code=${encodeURIComponent(voucher.slice(0, 100))}`);
  const c = config();
  const asker = requestContext({ request, context });
  const [textSize, user] = await Promise.all([readTextSize(request), asker.user()]);
  // Back from paying for a subscription: activate it before anything reads the reader's status.
  const clearCheckout = await completePendingCheckout(request, user?.id);
  if (clearCheckout) asker.subscriberChanged();
  const database = await asker.db();
  const visitor = user ? undefined : await asker.knownVisitorId();
  // The following stream marks everything seen as it renders, so its own page shows none unread.
  const onFollowingStream = new URL(request.url).pathname === "/my-library/topics";
  const rules = offerRules();
  // Every read here runs at once: under load each read waits its turn on the database.
  const [account, subscriber, guestDismissed, following, cart, quota] = await Promise.all([
    asker.account(),
    asker.subscriber(),
    visitor ? dismissedItems(database, visitorKey(visitor)) : ([] as Dismissible[]),
    user ? followingSummary(database, user.id, !onFollowingStream) : undefined,
    miniCart(asker),
    asker.account().then((reader) =>
      layerQuota(database, {
        reader: reader ?? undefined,
        visitorId: visitor,
        limits: { guest: rules.guestLimit, registered: rules.registeredLimit },
        pageCountsRead: isArticlePath(new URL(request.url).pathname),
      }),
    ),
  ]);
  const unreadFollowing = following?.unread ?? 0;
  const dismissed = account?.dismissed ?? guestDismissed;
  const analytics = analyticsDataLayer({ signedIn: account && { reader: account, following: following?.topics ?? [] }, quota });
  const recaptcha = captcha();
  const staff = /^\/desk(?:\/|$)/.test(new URL(request.url).pathname) ? await asker.staff() : null;
  return data<RootData>(
    {
      siteUrl: c.siteUrl,
      textSize,
      // Set while the maintenance switch is on; the banner names the store's daily window.
      maintenance: c.MAINTENANCE_MODE ? { window: storeMaintenance(c).window } : null,
      // The reader's name and data layer are the same mark on every signed-in reader's page (ADR 096).
      user: user
        ? {
            name: asker.readerParts.put("name", user.displayName || `${user.firstName} ${user.lastName}`),
            firstName: asker.readerParts.put("firstName", user.firstName),
            unreadFollowing,
          }
        : null,
      subscriber: subscriber ? { tier: subscriber.tier.name, caption: subscriber.tier.caption } : null,
      dismissed,
      cart,
      captcha:
        recaptcha.enabled && recaptcha.siteKey && recaptcha.scriptUrl
          ? { siteKey: recaptcha.siteKey, scriptUrl: recaptcha.scriptUrl }
          : null,
      analytics: user ? asker.readerParts.put("analytics", JSON.stringify(analytics)) : JSON.stringify(analytics),
      desk: staff?.deskSessionEnds ? { name: `${staff.user.firstName} ${staff.user.lastName}`, nav: deskNavigation(staff.roles) } : null,
    },
    clearCheckout ? { headers: { "Set-Cookie": clearCheckout } } : undefined,
  );
}

/**
 * The analytics data layer (server/readers/analytics.ts) as `window.meridianDataLayer`, for a tag manager
 * to read; nothing on the page reads it. Kept current after in-place navigations (a sign-in
 * changes it), since a script's new text does not run again. A signed-in reader's layer is a
 * mark in the document, filled in as it leaves (ADR 096).
 */
function AnalyticsDataLayerScript({ layer, nonce }: { layer: string; nonce: string | undefined }) {
  // An article page counts its read on the meter, and says where the meter stands after it.
  const meter = pageMeter(useMatches().map((m) => m.data));
  useEffect(() => {
    (window as unknown as { meridianDataLayer: AnalyticsDataLayer }).meridianDataLayer = layerForPage(layer, meter);
  }, [layer, meter]);
  const script = isMark(layer) ? layer : scriptJson(layerForPage(layer, meter));
  return <script nonce={nonce} data-analytics="" dangerouslySetInnerHTML={{ __html: `window.meridianDataLayer=${script};` }} />;
}

/**
 * A route whose handle says `bare` (a video embed) is shown without the site around it; one that
 * says `untracked` (an article's preview) carries no analytics data layer.
 */
export interface RouteHandle {
  bare?: boolean;
  untracked?: boolean;
}

// The sign-in modal arrives after hydration, in a chunk of its own (ADR 049): until then a link
// to /sign-in leads to the page, as without JS.
const AuthModal = lazyEnhancement(() => import("./components/AuthModal").then((module) => ({ default: module.AuthModal })));
// Messages few readers see (a new subscriber's welcome, the confirmation after registering) load
// only for them: rendered on the server, hydrated once their chunk has arrived.
const OnboardingOverlay = lazyEnhancement(() =>
  import("./components/OnboardingOverlay").then((module) => ({ default: module.OnboardingOverlay })),
);
const RegistrationBanner = lazyEnhancement(() =>
  import("./components/RegistrationBanner").then((module) => ({ default: module.RegistrationBanner })),
);

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  const textSize = useTextSize();
  const handles = useMatches().map((m) => m.handle as RouteHandle | undefined);
  const bare = handles.some((h) => h?.bare);
  const untracked = handles.some((h) => h?.untracked);
  const location = useLocation();
  const registered = new URLSearchParams(location.search).get("registration") === "success" && Boolean(data?.user);
  const welcoming = onboardingDue(data, location.pathname);
  if (bare) {
    return (
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <DocumentMeta />
          <Links />
        </head>
        <body>
          <main>{children}</main>
          <HydrationMark />
          <Scripts nonce={nonce} />
        </body>
      </html>
    );
  }
  if (data?.desk) {
    return (
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <DocumentMeta />
          <Links />
        </head>
        <body>
          <a href="#main" className={css.skipLink}>
            Skip to main content
          </a>
          <DeskChrome desk={data.desk}>{children}</DeskChrome>
          <HydrationMark />
          <ScrollRestoration nonce={nonce} />
          <Scripts nonce={nonce} />
        </body>
      </html>
    );
  }
  return (
    <html lang="en" data-text-size={textSize}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <DocumentMeta />
        <Links />
        <link rel="alternate" type="application/rss+xml" title="The Latest" href="/feeds/latest.xml" />
        {data && !untracked ? <AnalyticsDataLayerScript layer={data.analytics} nonce={nonce} /> : null}
      </head>
      <body>
        <a href="#main" className={css.skipLink}>
          Skip to main content
        </a>
        <SiteHeader />
        {registered ? (
          <Deferred>
            <RegistrationBanner />
          </Deferred>
        ) : null}
        {data?.maintenance ? (
          <p className={css.banner} role="status">
            {data.maintenance.window
              ? `Ordering and order history are unavailable from ${data.maintenance.window} for scheduled maintenance.`
              : "Ordering and order history are unavailable for scheduled maintenance."}
          </p>
        ) : null}
        <main id="main" className={`${css.page} ${css.main}`} tabIndex={-1}>
          {welcoming ? (
            <Deferred>
              <OnboardingOverlay />
            </Deferred>
          ) : null}
          {children}
        </main>
        <PersistentBanner />
        <SiteFooter />
        <PrintOnRequest />
        <AfterHydration />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * What only a hydrated page has. A component of its own, so that hydrating does not render the
 * layout again: a message in it whose code has not arrived yet (Deferred) would take that for an
 * update, and React would throw its server HTML away with error #421.
 */
function AfterHydration() {
  return useHydrated() ? (
    <Suspense fallback={null}>
      <AuthModal />
      <HydrationMark />
    </Suspense>
  ) : null;
}

/**
 * Marks the page once React has taken over and the sign-in modal is in place (browser tests wait
 * for it before they click). In the modal's Suspense boundary, so it mounts with the modal; a
 * bare page has no modal.
 */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorPage status={404} />;
  if (isRouteErrorResponse(error) && error.status === 403 && error.data === CROSS_SITE_REFUSED)
    return <ErrorPage status={403} message={CROSS_SITE_REFUSED} />;
  if (isRouteErrorResponse(error) && error.status < 500) return <ErrorPage status={error.status} />;
  return <ErrorPage status={500} />;
}
