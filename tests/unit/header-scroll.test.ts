import { describe, expect, it } from "vitest";
import { SCROLL_HYSTERESIS, scrollFlags } from "~/app/components/SiteHeader";

const off = { scrolled: false, far: false };

describe("the header's scroll flags", () => {
  it("turn on past the spec's thresholds: 100 and 250 px on desktop, 90 and 200 px on mobile", () => {
    expect(scrollFlags(100, true, off)).toEqual({ scrolled: false, far: false });
    expect(scrollFlags(101, true, off)).toEqual({ scrolled: true, far: false });
    expect(scrollFlags(251, true, off)).toEqual({ scrolled: true, far: true });
    expect(scrollFlags(91, false, off)).toEqual({ scrolled: true, far: false });
    expect(scrollFlags(201, false, off)).toEqual({ scrolled: true, far: true });
  });

  it("stay on when the page moves back a little, as it does when the header shrinks, so the header cannot flicker", () => {
    let flags = scrollFlags(101, true, off);
    // The header lost height as it shrank: the page now sits up to the margin higher, and back again.
    for (const y of [101 - SCROLL_HYSTERESIS + 1, 101, 100 - SCROLL_HYSTERESIS + 1, 101]) {
      flags = scrollFlags(y, true, flags);
      expect(flags.scrolled, `at ${y} px`).toBe(true);
    }
  });

  it("turn off once the reader has scrolled back past the margin", () => {
    const on = { scrolled: true, far: true };
    expect(scrollFlags(100 - SCROLL_HYSTERESIS, true, on)).toEqual({ scrolled: false, far: false });
    expect(scrollFlags(250 - SCROLL_HYSTERESIS, true, on)).toEqual({ scrolled: true, far: false });
  });
});
