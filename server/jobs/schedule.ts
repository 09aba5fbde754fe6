/** The first round of scheduled jobs comes this long after the server starts, once its pages are warm. */
export const FIRST_RUN_MS = 60_000;
/** Then a round every 15 minutes. */
export const RUN_EVERY_MS = 15 * 60_000;
/** Scheduled articles are published on a tick of their own (ADR 076): from the start, then every 10 s. */
export const PUBLISH_EVERY_MS = 10_000;
/** Newsletter issues due to go, and those being sent, are looked for on a tick of their own (ADR 084): from the start, then every 10 s. */
export const NEWSLETTERS_EVERY_MS = 10_000;
/** The name the jobs' processes show in ps and /proc. */
export const JOBS_TITLE = "meridian-jobs";
