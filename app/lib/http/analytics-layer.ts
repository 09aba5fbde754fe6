import type { AnalyticsDataLayer } from "~/server/readers/analytics";
import type { Quota } from "~/server/paywall/meter";

/** Where the meter stands after this page's read, when the page is an article that counts one. */
export function pageQuota(routeData: unknown[]): Quota | undefined {
  return routeData.map((d) => (d as { offer?: { quota?: Quota | null } } | undefined)?.offer?.quota).find((q) => q) ?? undefined;
}

/** The root loader's data layer (as its JSON text) with the page's own meter figures, if it has any. */
export function layerForPage(layerJson: string, quota: Quota | undefined): AnalyticsDataLayer {
  const layer = JSON.parse(layerJson) as AnalyticsDataLayer;
  if (!quota) return layer;
  return {
    user: { ...layer.user, quota: { limit: quota.limit, remaining: quota.remaining } },
    visitorScores: { ...layer.visitorScores, articlesReadThisMonth: quota.count },
  };
}
