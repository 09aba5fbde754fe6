import type { PreviewView } from "~/shared/preview-views";
import { decideOffer, type Offer, type OfferRequest, type OfferRules } from "./offers";

// The offers the desk's preview shows (ADR 079): what the offer service decides for a guest with
// free reads left, a guest whose reads have run out, and a subscriber. The meter's answer is
// made up for the view, so nothing is read from it or counted on it.

export function previewOffer(rules: OfferRules, article: OfferRequest["article"], view: PreviewView): Offer {
  const request = { article, readingList: false, gift: false };
  if (view === "subscriber") return decideOffer(rules, { ...request, reader: { kind: "subscriber", userId: "preview" } }, null);
  const meter = article.ascend ? "ascend" : "article";
  const limit = meter === "ascend" ? rules.ascendLimit : rules.guestLimit;
  // Before the wall: this is the guest's first read of the month; at it, the last was used up.
  const count = view === "guest" ? Math.min(1, limit) : limit;
  return decideOffer(
    rules,
    { ...request, reader: { kind: "guest", visitorId: "preview", network: null } },
    { allowed: view === "guest", meter, quota: { limit, count, remaining: limit - count } },
  );
}
