// A newsletter issue's words and limits as pages show them (ADR 084), in a module of their own so
// that a desk page loads no zod before hydrating (ADR 047); the form's schema is in
// newsletter-issue-fields.ts.

export const ISSUE_MAX_ARTICLES = 20;

/** The states of an issue as the desk names them. */
export const ISSUE_STATUS_NAMES = {
  draft: "Draft",
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
} as const;
