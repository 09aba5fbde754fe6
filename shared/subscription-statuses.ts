/**
 * The words the analytics data layer and the service API's profile use for where a subscription
 * stands (the spec names the field `subscriptionStatus`, not its values; ADR 066): active (gives
 * access, and renews if it renews), past_due (its renewal was declined; access lasts through the
 * grace), cancelled (by the subscriber: access to the end of the paid period, no renewal),
 * expired (its period is over), replaced (by another plan) or restricted.
 */
export const SUBSCRIPTION_STATUSES = ["active", "past_due", "cancelled", "expired", "replaced", "restricted"] as const;

export type AnalyticsSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
