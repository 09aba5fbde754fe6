import { describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config";
import { storeMaintenance } from "~/server/store/maintenance";
import { linePrice } from "~/shared/pricing";
import { cartLineType, deliveryOf, showsDownloadInfo } from "~/shared/product-types";
import { COUNTRIES, regionsOf } from "~/shared/regions";
import { findShippingMethod, shippingCents, shippingMethodsFor } from "~/shared/shipping";
import { taxCents } from "~/server/store/tax";

const daily = { MAINTENANCE_MODE: false, STORE_MAINTENANCE_WINDOW: "07:30-10:00", STORE_TIMEZONE: "America/New_York" };

describe("store maintenance window", () => {
  it("closes ordering from 7:30am to 10am Eastern, in winter (EST) and summer (EDT)", () => {
    // January: UTC-5.
    expect(storeMaintenance(daily, new Date("2026-01-15T12:29:00Z")).closed).toBe(false);
    expect(storeMaintenance(daily, new Date("2026-01-15T12:30:00Z")).closed).toBe(true);
    expect(storeMaintenance(daily, new Date("2026-01-15T14:59:00Z")).closed).toBe(true);
    expect(storeMaintenance(daily, new Date("2026-01-15T15:00:00Z")).closed).toBe(false);
    // July: UTC-4.
    expect(storeMaintenance(daily, new Date("2026-07-15T11:30:00Z")).closed).toBe(true);
    expect(storeMaintenance(daily, new Date("2026-07-15T14:30:00Z")).closed).toBe(false);
    expect(storeMaintenance(daily, new Date("2026-07-15T12:00:00Z")).window).toBe("7:30am to 10am EST");
  });

  it("closes whenever the maintenance switch is on, and never on a schedule when the window is off", () => {
    expect(storeMaintenance({ ...daily, MAINTENANCE_MODE: true }, new Date("2026-01-15T20:00:00Z")).closed).toBe(true);
    expect(storeMaintenance({ ...daily, STORE_MAINTENANCE_WINDOW: "off" }, new Date("2026-01-15T13:00:00Z"))).toEqual({
      closed: false,
      window: null,
    });
    expect(storeMaintenance({ ...daily, STORE_MAINTENANCE_WINDOW: "23:00-01:00" }, new Date("2026-01-15T05:30:00Z")).closed).toBe(true);
  });

  it("words another configured window and time zone in the notice", () => {
    expect(storeMaintenance({ ...daily, STORE_MAINTENANCE_WINDOW: "22:00-01:15" }).window).toBe("10pm to 1:15am EST");
    expect(storeMaintenance({ ...daily, STORE_MAINTENANCE_WINDOW: "00:00-12:00", STORE_TIMEZONE: "Europe/London" }).window).toBe(
      "12am to 12pm Europe/London",
    );
  });

  it("rejects a malformed window or time zone at start", () => {
    expect(() => parseConfig({ STORE_MAINTENANCE_WINDOW: "7:30 to 10" })).toThrow(/STORE_MAINTENANCE_WINDOW/);
    expect(() => parseConfig({ STORE_TIMEZONE: "Mars/Olympus" })).toThrow(/STORE_TIMEZONE/);
  });
});

describe("product types, prices, shipping and tax", () => {
  it("reads the spec's product-type codes", () => {
    expect(["KND", "PDF", "HTM", "ZIP", "PPT", "XLS", "EPB"].map(deliveryOf)).toEqual(Array(7).fill("digital"));
    expect(["BUN", "HBK", "PBK"].map(deliveryOf)).toEqual(["ship", "ship", "ship"]);
    expect([cartLineType("perm", "PDF"), cartLineType("item", "PDF"), cartLineType("item", "BUN")]).toEqual(["Perm", "Digital", "Ship"]);
    expect([showsDownloadInfo("SHIP"), showsDownloadInfo("BUNDLE"), showsDownloadInfo("EBOOK"), showsDownloadInfo("DIGITAL")]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it("prices in whole cents, with volume discounts only where offered", () => {
    expect(linePrice({ kind: "item", listPriceCents: 1995, quantity: 9, volumePricing: true })).toEqual({
      unitPriceCents: 1995,
      percentOff: 0,
      lineTotalCents: 17955,
    });
    expect(linePrice({ kind: "item", listPriceCents: 1995, quantity: 10, volumePricing: true })).toEqual({
      unitPriceCents: 1796,
      percentOff: 10,
      lineTotalCents: 17960,
    });
    expect(linePrice({ kind: "item", listPriceCents: 1995, quantity: 50, volumePricing: true }).unitPriceCents).toBe(1596);
    expect(linePrice({ kind: "item", listPriceCents: 1995, quantity: 50, volumePricing: false }).unitPriceCents).toBe(1995);
  });

  it("prices copyright permissions per copy, for less from 100 and from 500 copies", () => {
    const perm = (quantity: number) => linePrice({ kind: "perm", listPriceCents: 2995, quantity, volumePricing: false });
    expect([1, 99, 100, 499, 500, 10_000].map((q) => perm(q).unitPriceCents)).toEqual([150, 150, 125, 125, 100, 100]);
    expect(perm(250)).toEqual({ unitPriceCents: 125, percentOff: 0, lineTotalCents: 31_250 });
  });

  it("ships domestically by standard or express, abroad by international; free standard from $75", () => {
    expect(shippingMethodsFor("US").map((m) => m.id)).toEqual(["standard", "express"]);
    expect(shippingMethodsFor("DE").map((m) => m.id)).toEqual(["international"]);
    expect(findShippingMethod("DE", "standard")).toBeUndefined();
    const standard = findShippingMethod("CA", "standard")!;
    expect(shippingCents(standard, 3, 5000)).toBe(595 + 200);
    expect(shippingCents(standard, 3, 7500)).toBe(0);
    expect(shippingCents(standard, 0, 0)).toBe(0);
  });

  it("taxes by destination and lists regions for the US and Canada only", () => {
    expect(taxCents(10000, "US", "NY")).toBe(400);
    expect(taxCents(999, "US", "CA")).toBe(72);
    expect(taxCents(10000, "US", "OR")).toBe(0);
    expect(taxCents(10000, "CA", "ON")).toBe(500);
    expect(taxCents(10000, "GB", null)).toBe(0);
    expect(regionsOf("US")).toHaveLength(51);
    expect(regionsOf("CA")).toHaveLength(13);
    expect(regionsOf("FR")).toEqual([]);
    expect(COUNTRIES.slice(0, 2).map((c) => c.name)).toEqual(["United States", "Canada"]);
  });
});
