import { deskTime } from "./format";

/**
 * The desk's lost-update message (issue 38), the same for every page that can refuse a stale
 * save: "This {thing} was changed by {name} at {time} since you opened it." `at` is an ISO time;
 * a page adds what happened to the editor's own version after it.
 */
export function changedSinceOpened(thing: string, by: string | null, at: string | null): string {
  return `This ${thing} was changed by ${by ?? "someone else"} at ${at ? deskTime(at) : "an unknown time"} since you opened it.`;
}
