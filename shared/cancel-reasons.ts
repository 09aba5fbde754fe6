// Shared by the cancellation form and server/billing, which records the reason chosen.

/** The reasons a subscriber may give for cancelling; giving one is optional. */
export const CANCEL_REASONS = [
  { id: "price", label: "It costs more than I want to spend" },
  { id: "time", label: "I do not have time to read it" },
  { id: "content", label: "The content is not relevant to my work" },
  { id: "employer", label: "My employer provides access" },
  { id: "temporary", label: "I am taking a break and may return" },
  { id: "other", label: "Other" },
] as const;

export type CancelReason = (typeof CANCEL_REASONS)[number]["id"];
