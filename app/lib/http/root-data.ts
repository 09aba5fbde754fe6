import { useRouteLoaderData } from "@remix-run/react";
import type { Dismissible } from "~/server/readers/dismissals";
import type { TierName } from "~/server/subscriptions/tiers";
import type { MiniCart } from "~/app/lib/store/mini-cart.server";
import type { TextSize } from "~/app/lib/accounts/preferences.server";

/**
 * What the root loader (app/root.tsx) gives every page. Written out rather than inferred from the
 * loader, so that components can read it without importing the root module that renders them.
 */
export interface RootData {
  siteUrl: string;
  textSize: TextSize;
  /** Set while the maintenance switch is on; `window` names the store's daily window, if it has one. */
  maintenance: { window: string | null } | null;
  user: { name: string; firstName: string; unreadFollowing: number } | null;
  subscriber: { tier: TierName; caption: string | null } | null;
  dismissed: Dismissible[];
  cart: MiniCart;
  captcha: { siteKey: string; scriptUrl: string } | null;
  /** The analytics data layer as JSON text (a mark in a signed-in reader's document, ADR 096). */
  analytics: string;
  /** Inside the desk (a staff member with a live desk session, on a /desk page): its own bar instead of the site's. */
  desk: { name: string; nav: { title: string; path: string }[] } | null;
}

/** The root loader's data; undefined when the root loader did not answer (an error page). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>("root");
}
