import { describe, expect, it } from "vitest";
import { formatUsd } from "~/shared/money";
import { togetherTotalCents } from "~/shared/better-together";

// "Better together" (spec section 9): the sum of the checked items, to 2 decimals.

/** A store price in dollars, as the catalogue keeps it: whole cents. */
const item = (availabilityId: number, dollars: number) => ({ availabilityId, priceCents: Math.round(dollars * 100) });

describe("the Better together total", () => {
  const items = [item(1, 0.1), item(2, 0.2), item(3, 8.95), item(4, 8.95), item(5, 8.95)];

  it("adds the checked items only, to the cent, where adding dollars as floats would not", () => {
    // In floats 0.1 + 0.2 is 0.30000000000000004, and 8.95 three times 26.849999999999998.
    expect(togetherTotalCents(items, new Set([1, 2]))).toBe(30);
    expect(togetherTotalCents(items, new Set([3, 4, 5]))).toBe(2685);
    expect(formatUsd(togetherTotalCents(items, new Set([1, 2])))).toBe("$0.30");
    expect(formatUsd(togetherTotalCents(items, new Set([3, 4, 5])))).toBe("$26.85");
    expect(formatUsd(togetherTotalCents(items, new Set([1, 3])))).toBe("$9.05");
  });

  it("is $0.00 with nothing checked, and ignores ids that are not offered", () => {
    expect(formatUsd(togetherTotalCents(items, new Set()))).toBe("$0.00");
    expect(togetherTotalCents(items, new Set([99]))).toBe(0);
  });

  it("shows two decimals and thousands separators", () => {
    expect(formatUsd(togetherTotalCents([item(1, 1000), item(2, 24.5)], new Set([1, 2])))).toBe("$1,024.50");
  });
});
