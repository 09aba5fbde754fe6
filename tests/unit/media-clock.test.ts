import { describe, expect, it } from "vitest";
import { clock, spokenClock } from "~/app/components/media/clock";

describe("a player's clock", () => {
  it("shows mm:ss under an hour and h:mm:ss from an hour on", () => {
    expect(clock(0)).toBe("00:00");
    expect(clock(192.7)).toBe("03:12");
    expect(clock(3599)).toBe("59:59");
    expect(clock(3600 + 62)).toBe("1:01:02");
  });

  it("shows 00:00 for a length not yet known", () => {
    expect(clock(Number.NaN)).toBe("00:00");
    expect(clock(Number.POSITIVE_INFINITY)).toBe("00:00");
    expect(clock(-4)).toBe("00:00");
  });

  it("says the position in words for a screen reader", () => {
    expect(spokenClock(192)).toBe("3 minutes 12 seconds");
    expect(spokenClock(3601)).toBe("1 hour 1 second");
    expect(spokenClock(60)).toBe("1 minute");
    expect(spokenClock(0)).toBe("0 seconds");
  });
});
