/** The gift action's answer when a subscriber has used this month's gifts; the gift box shows it as the count. */
export const NO_GIFTS_LEFT = "You have no gifts left this month.";
