import { describe, expect, it } from "vitest";
import { changedSinceOpened } from "~/app/lib/desk/conflict";

// The desk's lost-update message (issue 38): one sentence for every page that refuses a stale save.

describe("changedSinceOpened", () => {
  it("names the thing, who changed it and when, in the issue's words", () => {
    expect(changedSinceOpened("article", "Ada Desk", "2026-05-14T21:30:12.345Z")).toBe(
      "This article was changed by Ada Desk at 2026-05-14 21:30 UTC since you opened it.",
    );
    expect(changedSinceOpened("reading list", "API key Sync", "2026-01-02T03:04:05Z")).toBe(
      "This reading list was changed by API key Sync at 2026-01-02 03:04 UTC since you opened it.",
    );
  });

  it("says so when who or when is not known", () => {
    expect(changedSinceOpened("author", null, null)).toBe(
      "This author was changed by someone else at an unknown time since you opened it.",
    );
    expect(changedSinceOpened("choice of stories", "Grace", "")).toBe(
      "This choice of stories was changed by Grace at an unknown time since you opened it.",
    );
  });
});
