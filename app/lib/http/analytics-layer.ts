import type { AnalyticsDataLayer } from "~/server/readers/analytics";
import type { Quota } from "~/server/paywall/meter";

/**
 * Where the meter stands after this page's read, as JSON text, when the page is an article that
 * counts one. For a signed-in reader's document on the server it is a mark (ADR 096).
 */
export function pageMeter(routeData: unknown[]): string | undefined {
  return routeData.map((d) => (d as { offer?: { meter?: { figures: string } | null } } | undefined)?.offer?.meter?.figures).find((f) => f);
}

/** The root loader's data layer (as its JSON text) with the page's own meter figures, if it has any. */
export function layerForPage(layerJson: string, meterJson: string | undefined): AnalyticsDataLayer {
  const layer = JSON.parse(layerJson) as AnalyticsDataLayer;
  if (!meterJson) return layer;
  const quota = JSON.parse(meterJson) as Quota;
  return {
    user: { ...layer.user, quota: { limit: quota.limit, remaining: quota.remaining } },
    visitorScores: { ...layer.visitorScores, articlesReadThisMonth: quota.count },
  };
}
