import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { contentItem, withContent, type ContentItem, type ContentRef } from "./content";
import { giftFolder, listFolders } from "./folders";

export const LIBRARY_PAGE_SIZE = 10;
/** Items one bulk action may name; a page shows far fewer. */
export const MAX_BULK_ITEMS = 100;

export interface LibraryItem {
  id: string;
  savedAt: string;
  readOnly: boolean;
  folderIds: string[];
  item: ContentItem;
}

/** The reader's own item ids among `ids`, in no particular order; others' and unknown ids drop out. */
async function ownItemIds(db: Database, userId: string, ids: string[]): Promise<{ id: string; read_only: number }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom("library_item").select(["id", "read_only"]).where("user_id", "=", userId).where("id", "in", ids).execute();
}

async function ownFolderIds(db: Database, userId: string, ids: string[], writableOnly = true): Promise<string[]> {
  const folders = await listFolders(db, userId);
  return folders.filter((f) => ids.includes(f.id) && (!writableOnly || !f.readOnly)).map((f) => f.id);
}

async function addToFolders(db: Database, itemIds: string[], folderIds: string[], now: Date): Promise<void> {
  const rows = itemIds.flatMap((item_id) => folderIds.map((folder_id) => ({ item_id, folder_id, added_at: now.toISOString() })));
  if (rows.length === 0) return;
  await db
    .insertInto("library_item_folder")
    .values(rows)
    .onConflict((oc) => oc.columns(["item_id", "folder_id"]).doNothing())
    .execute();
}

async function ensureItem(db: Database, userId: string, ref: ContentRef, readOnly: boolean, now: Date): Promise<string> {
  await db
    .insertInto("library_item")
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      content_type: ref.type,
      content_id: ref.id,
      read_only: readOnly ? 1 : 0,
      saved_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(["user_id", "content_type", "content_id"]).doNothing())
    .execute();
  const row = await db
    .selectFrom("library_item")
    .select("id")
    .where("user_id", "=", userId)
    .where("content_type", "=", ref.type)
    .where("content_id", "=", ref.id)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The saved item for a piece of content, if the reader saved it, with the folders it is in. */
export async function savedItem(
  db: Database,
  userId: string,
  ref: ContentRef,
): Promise<{ id: string; folderIds: string[]; readOnly: boolean } | undefined> {
  const row = await db
    .selectFrom("library_item")
    .select(["id", "read_only"])
    .where("user_id", "=", userId)
    .where("content_type", "=", ref.type)
    .where("content_id", "=", ref.id)
    .executeTakeFirst();
  if (!row) return undefined;
  const folders = await db.selectFrom("library_item_folder").select("folder_id").where("item_id", "=", row.id).execute();
  return { id: row.id, folderIds: folders.map((f) => f.folder_id), readOnly: row.read_only === 1 };
}

/**
 * Saves content to the library and into the chosen folders (others' folder ids and read-only
 * folders are ignored). Saving again only adds folders. Undefined when the content does not exist.
 */
export async function saveItem(
  db: Database,
  userId: string,
  ref: ContentRef,
  folderIds: string[],
  now = new Date(),
): Promise<string | undefined> {
  if (!(await contentItem(db, ref))) return undefined;
  const itemId = await ensureItem(db, userId, ref, false, now);
  await addToFolders(db, [itemId], await ownFolderIds(db, userId, folderIds), now);
  return itemId;
}

/** A gift that reached a signed-in reader: kept, read-only, in their gift folder. */
export async function keepGift(db: Database, userId: string, articleId: number, now = new Date()): Promise<void> {
  const folder = await giftFolder(db, userId);
  const itemId = await ensureItem(db, userId, { type: "article", id: articleId }, true, now);
  await addToFolders(db, [itemId], [folder.id], now);
}

/** Puts one item in exactly these folders (read-only folders keep what they hold). False when it is not the reader's. */
export async function setItemFolders(
  db: Database,
  userId: string,
  itemId: string,
  folderIds: string[],
  now = new Date(),
): Promise<boolean> {
  const [item] = await ownItemIds(db, userId, [itemId]);
  if (!item) return false;
  const writable = (await listFolders(db, userId)).filter((f) => !f.readOnly).map((f) => f.id);
  const keep = folderIds.filter((id) => writable.includes(id));
  await db.transaction().execute(async (tx) => {
    let removal = tx.deleteFrom("library_item_folder").where("item_id", "=", itemId);
    if (writable.length > 0) removal = removal.where("folder_id", "in", writable);
    await removal.execute();
    await addToFolders(tx, [itemId], keep, now);
  });
  return true;
}

/**
 * Adds items to folders; answers how many items were added, or undefined (and changes nothing)
 * when any id is not one of the reader's own items or writable folders.
 */
export async function addItemsToFolders(
  db: Database,
  userId: string,
  itemIds: string[],
  folderIds: string[],
  now = new Date(),
): Promise<number | undefined> {
  const wanted = [...new Set(itemIds)].slice(0, MAX_BULK_ITEMS);
  const folders = [...new Set(folderIds)];
  const items = await ownItemIds(db, userId, wanted);
  const writable = await ownFolderIds(db, userId, folders);
  if (items.length !== wanted.length || writable.length !== folders.length) return undefined;
  await addToFolders(db, wanted, writable, now);
  return wanted.length;
}

/**
 * Takes items out of folders (they stay in the library; read-only folders keep what they hold);
 * answers how many items were named, or undefined (and changes nothing) when any id is not one
 * of the reader's own items or writable folders.
 */
export async function removeItemsFromFolders(
  db: Database,
  userId: string,
  itemIds: string[],
  folderIds: string[],
): Promise<number | undefined> {
  const wanted = [...new Set(itemIds)].slice(0, MAX_BULK_ITEMS);
  const folders = [...new Set(folderIds)];
  const items = await ownItemIds(db, userId, wanted);
  const writable = await ownFolderIds(db, userId, folders);
  if (items.length !== wanted.length || writable.length !== folders.length) return undefined;
  if (wanted.length === 0 || writable.length === 0) return 0;
  await db.deleteFrom("library_item_folder").where("item_id", "in", wanted).where("folder_id", "in", writable).execute();
  return wanted.length;
}

/**
 * Removes items from the library (read-only ones stay); answers how many went, or undefined
 * (and removes nothing) when any id is not one of the reader's own items.
 */
export async function discardItems(db: Database, userId: string, itemIds: string[]): Promise<number | undefined> {
  const wanted = [...new Set(itemIds)].slice(0, MAX_BULK_ITEMS);
  const items = await ownItemIds(db, userId, wanted);
  if (items.length !== wanted.length) return undefined;
  const removable = items.filter((i) => i.read_only === 0).map((i) => i.id);
  if (removable.length === 0) return 0;
  await db.deleteFrom("library_item").where("user_id", "=", userId).where("id", "in", removable).execute();
  return removable.length;
}

/** One of the reader's own items with its content and folders; someone else's id finds nothing. */
export async function ownLibraryItem(db: Database, userId: string, itemId: string): Promise<LibraryItem | undefined> {
  const row = await db
    .selectFrom("library_item")
    .select(["id", "content_type", "content_id", "read_only", "saved_at"])
    .where("user_id", "=", userId)
    .where("id", "=", itemId)
    .executeTakeFirst();
  const [found] = row ? await withContent(db, [row]) : [];
  if (!found) return undefined;
  const folders = await db.selectFrom("library_item_folder").select("folder_id").where("item_id", "=", found.id).execute();
  return {
    id: found.id,
    savedAt: found.saved_at,
    readOnly: found.read_only === 1,
    folderIds: folders.map((f) => f.folder_id),
    item: found.item,
  };
}

/** A page of the library, newest first: everything, or one folder's items. */
export async function libraryItems(
  db: Database,
  userId: string,
  folderId: string | null,
  page: number,
  size = LIBRARY_PAGE_SIZE,
): Promise<{ items: LibraryItem[]; total: number }> {
  let base = db.selectFrom("library_item").where("library_item.user_id", "=", userId);
  if (folderId) {
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom("library_item_folder")
          .select("item_id")
          .whereRef("library_item_folder.item_id", "=", "library_item.id")
          .where("library_item_folder.folder_id", "=", folderId),
      ),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .select([
        "library_item.id",
        "library_item.content_type",
        "library_item.content_id",
        "library_item.read_only",
        "library_item.saved_at",
      ])
      .orderBy("library_item.saved_at", "desc")
      .orderBy("library_item.id")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  const found = await withContent(db, rows);
  const memberships = found.length
    ? await db
        .selectFrom("library_item_folder")
        .select(["item_id", "folder_id"])
        .where(
          "item_id",
          "in",
          found.map((r) => r.id),
        )
        .execute()
    : [];
  return {
    items: found.map((r) => ({
      id: r.id,
      savedAt: r.saved_at,
      readOnly: r.read_only === 1,
      folderIds: memberships.filter((m) => m.item_id === r.id).map((m) => m.folder_id),
      item: r.item,
    })),
    total: Number(count.n),
  };
}
