import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { addToCart, createCart, mergeGuestCart, readCart, setLineQuantity, userCartId } from "~/server/store/cart";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
/** Availability ids from the seed catalogue, by what they are. */
const pick: Record<
  "hardcover" | "ebook" | "bundle" | "comingSoon" | "volume" | "withPermissions" | "noPermissions",
  { id: number; price: number }
> = {} as never;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  const rows = await db.selectFrom("product_availability").selectAll().orderBy("id").execute();
  const first = (test: (r: (typeof rows)[number]) => boolean) => {
    const r = rows.find(test);
    if (!r) throw new Error("seed catalogue lacks a needed availability");
    return { id: r.id, price: r.list_price_cents };
  };
  pick.hardcover = first((r) => r.code === "HBK" && r.status === "A");
  pick.ebook = first((r) => r.code === "KND" && r.status === "A");
  pick.bundle = first((r) => r.code === "BUN" && r.status === "A");
  pick.comingSoon = first((r) => r.status === "F");
  pick.volume = first((r) => r.line_type === "SHIP" && r.volume_pricing === 1 && r.status === "A");
  pick.withPermissions = first((r) => r.permissions_available === 1 && r.status === "A");
  pick.noPermissions = first((r) => r.permissions_available === 0 && r.status === "A");
});
afterAll(() => close());

const item = (availabilityId: number, quantity = 1) => ({ availabilityId, type: "Ship" as const, quantity, referral: null });
const digitalItem = (availabilityId: number, quantity = 1) => ({ availabilityId, type: "Digital" as const, quantity, referral: null });
let clock = Date.parse("2026-11-01T12:00:00Z");
/** Each add a second after the last, so lines list in the order they were added. */
const tick = () => new Date((clock += 1000));

describe("cart", () => {
  it("prices lines from the catalogue and splits physical from digital", async () => {
    const cart = await createCart(db, null);
    expect((await addToCart(db, cart, item(pick.hardcover.id, 2), tick())).ok).toBe(true);
    expect((await addToCart(db, cart, digitalItem(pick.ebook.id), tick())).ok).toBe(true);
    const read = await readCart(db, cart);
    expect(read.physical.map((l) => [l.availabilityId, l.quantity, l.lineTotalCents])).toEqual([
      [pick.hardcover.id, 2, pick.hardcover.price * 2],
    ]);
    expect(read.digital.map((l) => [l.availabilityId, l.type])).toEqual([[pick.ebook.id, "Digital"]]);
    expect(read.subtotalCents).toBe(pick.hardcover.price * 2 + pick.ebook.price);
    expect(read.itemCount).toBe(3);
  });

  it("counts every one of several adds of one new item to one cart that arrive at once", async () => {
    const cart = await createCart(db, null);
    const now = tick();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => addToCart(db, cart, item(pick.hardcover.id), now)));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(new Set(outcomes.map((o) => o.ok && o.lineId)).size).toBe(1);
    expect((await readCart(db, cart)).lines.map((l) => [l.availabilityId, l.quantity])).toEqual([[pick.hardcover.id, 5]]);
  });

  it("takes a coming-soon item as a pre-order, with its date", async () => {
    const cart = await createCart(db, null);
    expect((await addToCart(db, cart, item(pick.comingSoon.id), tick())).ok).toBe(true);
    const [line] = (await readCart(db, cart)).lines;
    expect(line).toMatchObject({ availabilityId: pick.comingSoon.id, comingSoon: true, preorderCharge: "payment" });
    expect(line!.availableDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });

  it("refuses quantities below 1, unknown items and a second copy of a digital item", async () => {
    const cart = await createCart(db, null);
    expect(await addToCart(db, cart, item(pick.hardcover.id, 0), tick())).toMatchObject({ ok: false, problem: "quantity" });
    expect(await addToCart(db, cart, item(pick.hardcover.id, -3), tick())).toMatchObject({ ok: false, problem: "quantity" });
    expect(await addToCart(db, cart, item(pick.hardcover.id, 1.5), tick())).toMatchObject({ ok: false, problem: "quantity" });
    expect(await addToCart(db, cart, item(999_999), tick())).toMatchObject({ ok: false, problem: "unknown-product" });
    expect(await addToCart(db, cart, digitalItem(pick.ebook.id, 2), tick())).toMatchObject({ ok: false, problem: "digital-limit" });
    expect((await addToCart(db, cart, digitalItem(pick.ebook.id), tick())).ok).toBe(true);
    expect(await addToCart(db, cart, digitalItem(pick.ebook.id), tick())).toMatchObject({ ok: false, problem: "digital-limit" });
    expect(await addToCart(db, cart, item(pick.hardcover.id, 1000), tick())).toMatchObject({ ok: false, problem: "too-many" });
    expect((await readCart(db, cart)).lines.map((l) => l.quantity)).toEqual([1]);
  });

  it("refuses an item added as a type its format is not, naming the type it is: a bundle ships, an ebook is digital", async () => {
    const cart = await createCart(db, null);
    expect(await addToCart(db, cart, digitalItem(pick.bundle.id), tick())).toEqual({ ok: false, problem: "wrong-type", type: "Ship" });
    expect(await addToCart(db, cart, item(pick.ebook.id), tick())).toEqual({ ok: false, problem: "wrong-type", type: "Digital" });
    expect(await addToCart(db, cart, digitalItem(pick.hardcover.id), tick())).toEqual({ ok: false, problem: "wrong-type", type: "Ship" });
    expect((await readCart(db, cart)).lines).toEqual([]);
    expect((await addToCart(db, cart, item(pick.bundle.id), tick())).ok).toBe(true);
    expect((await readCart(db, cart)).lines.map((l) => [l.availabilityId, l.type])).toEqual([[pick.bundle.id, "Ship"]]);
  });

  it("steps quantities: 0 removes the line, a digital line stays at 1, another cart's line is not found", async () => {
    const cart = await createCart(db, null);
    const other = await createCart(db, null);
    const ship = await addToCart(db, cart, item(pick.hardcover.id, 3), tick());
    const digital = await addToCart(db, cart, digitalItem(pick.ebook.id), tick());
    if (!ship.ok || !digital.ok) throw new Error("setup");
    expect(await setLineQuantity(db, cart, ship.lineId, 2)).toBe("updated");
    expect(await setLineQuantity(db, cart, digital.lineId, 2)).toBe("digital-limit");
    expect(await setLineQuantity(db, other, ship.lineId, 5)).toBe("not-found");
    expect(await setLineQuantity(db, cart, ship.lineId, -1)).toBe("invalid");
    expect((await readCart(db, cart)).lines.map((l) => l.quantity)).toEqual([2, 1]);
    expect(await setLineQuantity(db, cart, ship.lineId, 0)).toBe("removed");
    expect((await readCart(db, cart)).lines.map((l) => l.availabilityId)).toEqual([pick.ebook.id]);
  });

  it("applies volume pricing from 10 copies, and prices permissions per copy", async () => {
    const cart = await createCart(db, null);
    await addToCart(db, cart, item(pick.volume.id, 10), tick());
    expect(
      await addToCart(db, cart, { availabilityId: pick.noPermissions.id, type: "Perm", quantity: 5, referral: null }, tick()),
    ).toMatchObject({ ok: false, problem: "no-permissions" });
    expect(
      (await addToCart(db, cart, { availabilityId: pick.withPermissions.id, type: "Perm", quantity: 250, referral: "03069" }, tick())).ok,
    ).toBe(true);
    const [volume, perm] = (await readCart(db, cart)).lines;
    expect(volume).toMatchObject({ percentOff: 10, unitPriceCents: Math.round(pick.volume.price * 0.9) });
    expect(perm).toMatchObject({ type: "Perm", quantity: 250, lineTotalCents: 250 * 125, referral: "03069" });
    // The mini cart counts the 10 copies and the permission once, not its 250 licensed copies.
    expect((await readCart(db, cart)).itemCount).toBe(11);
  });

  it("merges a guest cart into the reader's cart at sign-in, within each line's limit", async () => {
    const user = await insertUser(db, {
      firstName: "Cart",
      lastName: "Merger",
      email: "cart.merger@example.org",
      password: "Correct7horse!",
      optIn: false,
    });
    if (!user) throw new Error("user");
    const own = await userCartId(db, user.id, true);
    await addToCart(db, own, item(pick.hardcover.id, 1), tick());
    await addToCart(db, own, digitalItem(pick.ebook.id), tick());
    const guest = await createCart(db, null);
    await addToCart(db, guest, item(pick.hardcover.id, 2), tick());
    await addToCart(db, guest, digitalItem(pick.ebook.id), tick());
    await addToCart(db, guest, item(pick.volume.id, 4), tick());
    expect(await mergeGuestCart(db, guest, user.id)).toEqual({ cartId: own, linesMoved: pick.volume.id === pick.hardcover.id ? 2 : 3 });
    const merged = await readCart(db, own);
    expect(Object.fromEntries(merged.lines.map((l) => [l.availabilityId, l.quantity]))).toEqual({
      [pick.hardcover.id]: pick.volume.id === pick.hardcover.id ? 7 : 3,
      [pick.ebook.id]: 1,
      ...(pick.volume.id === pick.hardcover.id ? {} : { [pick.volume.id]: 4 }),
    });
    expect(await db.selectFrom("cart").select("id").where("id", "=", guest).executeTakeFirst()).toBeUndefined();
  });

  it("moves a guest cart once when two merges of it arrive at the same moment", async () => {
    const user = await insertUser(db, {
      firstName: "Cart",
      lastName: "Twice",
      email: "cart.twice@example.org",
      password: "Correct7horse!",
      optIn: false,
    });
    if (!user) throw new Error("user");
    const guest = await createCart(db, null);
    await addToCart(db, guest, item(pick.hardcover.id, 2), tick());
    const merges = await Promise.all([mergeGuestCart(db, guest, user.id), mergeGuestCart(db, guest, user.id)]);
    expect(merges.map((m) => m.linesMoved).sort()).toEqual([0, 1]);
    const own = await userCartId(db, user.id);
    expect((await readCart(db, own!)).lines.map((l) => l.quantity)).toEqual([2]);
  });
});
