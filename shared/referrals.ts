/** Referral codes from the spec: topic streams and home pages, search more-results, else none. */
export const REFERRAL_TOPICS_AND_HOME = "03069";
export const REFERRAL_SEARCH_MORE_RESULTS = "02749";
