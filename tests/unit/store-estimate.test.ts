import { describe, expect, it } from "vitest";
import type { Cart, CartLine } from "~/server/store/cart";
import { estimateCharges } from "~/server/store/pricing";

const line = (type: CartLine["type"], quantity: number, lineTotalCents: number) => ({ type, quantity, lineTotalCents }) as CartLine;

function cart(lines: CartLine[]): Cart {
  return {
    id: "c",
    lines,
    physical: lines.filter((l) => l.type === "Ship"),
    digital: lines.filter((l) => l.type !== "Ship"),
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    subtotalCents: lines.reduce((n, l) => n + l.lineTotalCents, 0),
  };
}

describe("the cart's estimate", () => {
  it("taxes the subtotal at the destination's rate and picks the cheapest shipping", () => {
    const estimate = estimateCharges(cart([line("Ship", 2, 4000), line("Digital", 1, 2499)]), {
      country: "US",
      region: "CA",
      postalCode: "94105",
    });
    // 7.25% of $64.99 is $4.71; Standard for two copies under $75: $5.95 + $1.00.
    expect(estimate).toEqual({ taxCents: 471, shipping: { name: "Standard", cents: 695 }, grandTotalCents: 6499 + 471 + 695 });
  });

  it("ships free by Standard from $75 of physical items, charges nothing to ship digital items, and uses Canada's GST", () => {
    expect(estimateCharges(cart([line("Ship", 3, 7500)]), { country: "US", region: "OR", postalCode: "97201" })).toEqual({
      taxCents: 0,
      shipping: { name: "Standard", cents: 0 },
      grandTotalCents: 7500,
    });
    expect(
      estimateCharges(cart([line("Digital", 1, 2000), line("Perm", 10, 1500)]), { country: "CA", region: "ON", postalCode: "M5V 2T6" }),
    ).toEqual({ taxCents: 175, shipping: null, grandTotalCents: 3675 });
    expect(estimateCharges(cart([line("Ship", 1, 3200)]), { country: "JP", region: null, postalCode: "100-0001" }).shipping).toEqual({
      name: "International",
      cents: 2495,
    });
  });
});
