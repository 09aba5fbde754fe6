import { REFERRAL_SEARCH_MORE_RESULTS, REFERRAL_TOPICS_AND_HOME } from "~/shared/referrals";

/** Spec section 9: the fixed five-digit referral code an add to cart carries when no other applies. */
export const DEFAULT_ADD_TO_CART_REFERRAL = "05290";

/** Where a product link was followed from, for its default referral code. */
export type ReferralSource = "topic-stream" | "home" | "search-more-results" | "other";

const DEFAULT_REFERRALS: Record<ReferralSource, string> = {
  "topic-stream": REFERRAL_TOPICS_AND_HOME,
  home: REFERRAL_TOPICS_AND_HOME,
  "search-more-results": REFERRAL_SEARCH_MORE_RESULTS,
  other: DEFAULT_ADD_TO_CART_REFERRAL,
};

/** The referral code of an add to cart: the page's `referral` query value when it is numeric, else the default for where it came from. */
export function referralCode(queryValue: string | null, source: ReferralSource = "other"): string {
  if (queryValue !== null && /^\d{1,12}$/.test(queryValue)) return queryValue;
  return DEFAULT_REFERRALS[source];
}
