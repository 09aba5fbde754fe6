import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { folderNameKey, isValidFolderName } from "~/shared/folder-names";
import { createFolder, deleteFolder, listFolders, MAX_FOLDERS, updateFolder } from "~/server/library/folders";
import { activityFeed, recordShare, recordView, shareHistory, viewHistory } from "~/server/library/history";
import { addItemsToFolders, discardItems, keepGift, libraryItems, saveItem, savedItem, setItemFolders } from "~/server/library/items";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let articleIds: number[];
let videoId: number;
let counter = 0;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  articleIds = (await db.selectFrom("article").select("id").orderBy("id").limit(5).execute()).map((r) => r.id);
  videoId = (await db.selectFrom("video").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
});
afterAll(() => close());

async function newReader(): Promise<User> {
  counter += 1;
  const user = await insertUser(db, {
    firstName: "Lib",
    lastName: "Rarian",
    email: `library${counter}@example.org`,
    password: "Correct7horse!",
    optIn: false,
  });
  if (!user) throw new Error("user not created");
  return user;
}

async function folder(user: User, name: string) {
  const made = await createFolder(db, user.id, { name, description: "" });
  if (!made.ok) throw new Error(made.error);
  return made.folder;
}

describe("folder names", () => {
  it("allow 1 to 30 letters, digits or spaces, not only spaces", () => {
    for (const ok of ["A", "Q3 planning", "x".repeat(30), " padded "]) expect(isValidFolderName(ok), ok).toBe(true);
    for (const bad of ["", "   ", "x".repeat(31), "R&D", "naïve", "dash-ed", "tab\there"]) expect(isValidFolderName(bad), bad).toBe(false);
  });

  it("are unique ignoring case and spaces, and trimmed when saved", async () => {
    const reader = await newReader();
    const made = await createFolder(db, reader.id, { name: "  Board Prep ", description: " For Monday " });
    expect(made).toMatchObject({ ok: true, folder: { name: "Board Prep", slug: "board-prep", description: "For Monday" } });
    expect(await createFolder(db, reader.id, { name: "boardprep", description: "" })).toEqual({ ok: false, error: "exists" });
    expect(await createFolder(db, reader.id, { name: "BOARD  PREP", description: "" })).toEqual({ ok: false, error: "exists" });
    expect(folderNameKey("Board Prep")).toBe(folderNameKey("boardPREP"));
    // Another reader's names are their own business.
    expect((await createFolder(db, (await newReader()).id, { name: "Board Prep", description: "" })).ok).toBe(true);
  });

  it("are refused by server/library itself when invalid or taken, whoever calls it", async () => {
    const reader = await newReader();
    const a = await folder(reader, "Research");
    for (const bad of ["", "   ", "x".repeat(31), "R&D"]) {
      expect(await createFolder(db, reader.id, { name: bad, description: "" }), bad).toEqual({ ok: false, error: "invalid-name" });
      expect(await updateFolder(db, reader.id, a.id, { name: bad, description: "" }), bad).toEqual({ ok: false, error: "invalid-name" });
    }
    expect(await createFolder(db, reader.id, { name: " research", description: "" })).toEqual({ ok: false, error: "exists" });
    expect((await listFolders(db, reader.id)).map((f) => f.name)).toEqual(["Research"]);
  });

  it("cannot be renamed onto another folder's name, but may change their own case", async () => {
    const reader = await newReader();
    const a = await folder(reader, "Strategy");
    await folder(reader, "Pricing");
    expect(await updateFolder(db, reader.id, a.id, { name: "pricing", description: "" })).toEqual({ ok: false, error: "exists" });
    expect(await updateFolder(db, reader.id, a.id, { name: "STRATEGY", description: "Big picture" })).toMatchObject({
      ok: true,
      folder: { name: "STRATEGY", slug: "strategy" },
    });
  });

  it(`stop at ${MAX_FOLDERS} folders a reader`, async () => {
    const reader = await newReader();
    for (let i = 0; i < MAX_FOLDERS; i++) await folder(reader, `Folder ${i}`);
    expect(await createFolder(db, reader.id, { name: "One more", description: "" })).toEqual({ ok: false, error: "too-many" });
  });
});

describe("saving and organising", () => {
  it("saves once, adds folders, and lists the library newest first, everything or one folder", async () => {
    const reader = await newReader();
    const work = await folder(reader, "Work");
    const later = await folder(reader, "Later");
    const first = await saveItem(db, reader.id, { type: "article", id: articleIds[0]! }, [work.id], new Date("2026-01-01T00:00:00Z"));
    const again = await saveItem(db, reader.id, { type: "article", id: articleIds[0]! }, [later.id], new Date("2026-01-02T00:00:00Z"));
    expect(again).toBe(first);
    await saveItem(db, reader.id, { type: "video", id: videoId }, [], new Date("2026-01-03T00:00:00Z"));
    const all = await libraryItems(db, reader.id, null, 1);
    expect(all.total).toBe(2);
    expect(all.items.map((i) => i.item.type)).toEqual(["video", "article"]);
    expect((await savedItem(db, reader.id, { type: "article", id: articleIds[0]! }))?.folderIds.sort()).toEqual([work.id, later.id].sort());
    expect((await libraryItems(db, reader.id, work.id, 1)).items.map((i) => i.id)).toEqual([first]);
    expect((await listFolders(db, reader.id)).map((f) => [f.name, f.itemCount]).sort()).toEqual([
      ["Later", 1],
      ["Work", 1],
    ]);
  });

  it("refuses content that does not exist, and ignores other readers' folders", async () => {
    const reader = await newReader();
    const other = await newReader();
    const theirs = await folder(other, "Theirs");
    expect(await saveItem(db, reader.id, { type: "article", id: 999_999_999 }, [])).toBeUndefined();
    expect(await saveItem(db, reader.id, { type: "video", id: articleIds[0]! }, [])).toBeUndefined();
    const saved = await saveItem(db, reader.id, { type: "article", id: articleIds[1]! }, [theirs.id]);
    expect(saved).toBeDefined();
    expect((await listFolders(db, other.id))[0]!.itemCount).toBe(0);
  });

  it("sets one item's folders exactly, and bulk-adds and discards only the reader's own items", async () => {
    const reader = await newReader();
    const other = await newReader();
    const a = await folder(reader, "A");
    const b = await folder(reader, "B");
    const mine = [];
    for (const id of articleIds.slice(0, 3)) mine.push((await saveItem(db, reader.id, { type: "article", id }, [a.id]))!);
    const theirs = (await saveItem(db, other.id, { type: "article", id: articleIds[0]! }, []))!;

    expect(await setItemFolders(db, reader.id, mine[0]!, [b.id])).toBe(true);
    expect((await savedItem(db, reader.id, { type: "article", id: articleIds[0]! }))?.folderIds).toEqual([b.id]);
    expect(await setItemFolders(db, reader.id, theirs, [a.id])).toBe(false);

    // One foreign or unknown id and nothing changes.
    expect(await addItemsToFolders(db, reader.id, [...mine, theirs], [b.id])).toBeUndefined();
    expect(await addItemsToFolders(db, reader.id, [...mine, "not-an-id"], [b.id])).toBeUndefined();
    expect(await addItemsToFolders(db, other.id, [theirs], [a.id])).toBeUndefined();
    expect((await libraryItems(db, other.id, null, 1)).items[0]!.folderIds).toEqual([]);
    expect((await libraryItems(db, reader.id, b.id, 1)).total).toBe(1);
    expect(await addItemsToFolders(db, reader.id, [...mine, mine[0]!], [b.id])).toBe(3);
    expect((await libraryItems(db, reader.id, b.id, 1)).total).toBe(3);

    expect(await discardItems(db, reader.id, [mine[1]!, theirs])).toBeUndefined();
    expect((await libraryItems(db, reader.id, null, 1)).total).toBe(3);
    expect(await discardItems(db, reader.id, [mine[1]!])).toBe(1);
    expect((await libraryItems(db, reader.id, null, 1)).total).toBe(2);
    expect((await libraryItems(db, other.id, null, 1)).total).toBe(1);
  });

  it("keeps gifts read-only in the gift folder, which cannot be renamed or deleted", async () => {
    const reader = await newReader();
    await keepGift(db, reader.id, articleIds[2]!);
    await keepGift(db, reader.id, articleIds[2]!);
    const [gifts] = await listFolders(db, reader.id);
    expect(gifts).toMatchObject({ name: "Gifted Articles", readOnly: true, itemCount: 1 });
    const item = (await libraryItems(db, reader.id, gifts!.id, 1)).items[0]!;
    expect(item.readOnly).toBe(true);
    expect(await discardItems(db, reader.id, [item.id])).toBe(0);
    expect(await updateFolder(db, reader.id, gifts!.id, { name: "Mine now", description: "" })).toEqual({ ok: false, error: "read-only" });
    expect(await deleteFolder(db, reader.id, gifts!.id)).toEqual({ ok: false, error: "read-only" });
    const mine = await folder(reader, "Mine");
    await setItemFolders(db, reader.id, item.id, [mine.id]);
    expect((await libraryItems(db, reader.id, gifts!.id, 1)).total).toBe(1);
  });

  it("deletes a folder but keeps its items in the library", async () => {
    const reader = await newReader();
    const gone = await folder(reader, "Gone");
    await saveItem(db, reader.id, { type: "article", id: articleIds[0]! }, [gone.id]);
    expect((await deleteFolder(db, reader.id, gone.id)).ok).toBe(true);
    expect(await deleteFolder(db, reader.id, gone.id)).toEqual({ ok: false, error: "missing" });
    expect((await libraryItems(db, reader.id, null, 1)).total).toBe(1);
  });
});

describe("histories", () => {
  it("keep the latest open of each item, shares one by one, and the activity feed holds them all", async () => {
    const reader = await newReader();
    await recordView(db, reader.id, { type: "article", id: articleIds[0]! }, new Date("2026-02-01T00:00:00Z"));
    await recordView(db, reader.id, { type: "article", id: articleIds[1]! }, new Date("2026-02-02T00:00:00Z"));
    await recordView(db, reader.id, { type: "article", id: articleIds[0]! }, new Date("2026-02-03T00:00:00Z"));
    await recordView(db, reader.id, { type: "video", id: videoId }, new Date("2026-02-04T00:00:00Z"));
    await recordShare(db, reader.id, { type: "article", id: articleIds[1]! }, "twitter", 0, new Date("2026-02-05T00:00:00Z"));
    await recordShare(db, reader.id, { type: "article", id: articleIds[1]! }, "email", 2, new Date("2026-02-06T00:00:00Z"));
    await saveItem(db, reader.id, { type: "article", id: articleIds[2]! }, [], new Date("2026-02-07T00:00:00Z"));

    const reading = await viewHistory(db, reader.id, "article", 1);
    expect(reading.entries.map((e) => e.item.id)).toEqual([articleIds[0], articleIds[1]]);
    expect((await viewHistory(db, reader.id, "video", 1)).entries.map((e) => e.activity)).toEqual(["watched"]);
    expect((await shareHistory(db, reader.id, 1)).entries.map((e) => e.provider)).toEqual(["email", "twitter"]);
    const feed = await activityFeed(db, reader.id, 1);
    expect(feed.total).toBe(6);
    expect(feed.entries.map((e) => e.activity)).toEqual(["saved", "shared", "shared", "watched", "read", "read"]);
    expect((await activityFeed(db, (await newReader()).id, 1)).total).toBe(0);
  });
});
