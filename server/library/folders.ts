import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { folderNameKey, isValidFolderName } from "~/shared/folder-names";

/** A reader's folders, at most; enough for any real library, and a bound on what one account can store. */
export const MAX_FOLDERS = 100;

/** The read-only folder gift links land in (shown with a gift icon). */
export const GIFT_FOLDER = {
  name: "Gifted Articles",
  slug: "gifted-articles",
  description: "Articles subscribers have gifted you.",
} as const;

const folderSlug = (name: string) => name.trim().toLowerCase().split(/\s+/).join("-");

export interface Folder {
  id: string;
  name: string;
  slug: string;
  description: string;
  readOnly: boolean;
  itemCount: number;
}

/** invalid-name: not 1 to 30 letters, digits or spaces (spec 5); exists: another of the reader's folders has the name. */
export type FolderResult =
  { ok: true; folder: Folder } | { ok: false; error: "invalid-name" | "exists" | "missing" | "read-only" | "too-many" };

export async function listFolders(db: Database, userId: string): Promise<Folder[]> {
  const rows = await db
    .selectFrom("library_folder")
    .leftJoin("library_item_folder", "library_item_folder.folder_id", "library_folder.id")
    .select(["library_folder.id", "library_folder.name", "library_folder.slug", "library_folder.description", "library_folder.read_only"])
    .select((eb) => eb.fn.count("library_item_folder.item_id").as("n"))
    .where("library_folder.user_id", "=", userId)
    .groupBy([
      "library_folder.id",
      "library_folder.name",
      "library_folder.slug",
      "library_folder.description",
      "library_folder.read_only",
      "library_folder.created_at",
    ])
    .orderBy("library_folder.read_only", "desc")
    .orderBy("library_folder.created_at")
    .orderBy("library_folder.name")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    description: r.description,
    readOnly: r.read_only === 1,
    itemCount: Number(r.n),
  }));
}

/** One of the reader's own folders; someone else's folder id finds nothing. */
export async function ownFolder(db: Database, userId: string, folderId: string): Promise<Folder | undefined> {
  return (await listFolders(db, userId)).find((f) => f.id === folderId);
}

/** One of the reader's own folders by its name (ignoring case and spaces, as names are unique). */
export async function ownFolderByName(db: Database, userId: string, name: string): Promise<Folder | undefined> {
  const key = folderNameKey(name);
  return (await listFolders(db, userId)).find((f) => folderNameKey(f.name) === key);
}

async function nameTaken(db: Database, userId: string, name: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom("library_folder").select("id").where("user_id", "=", userId).where("name_key", "=", folderNameKey(name));
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Creates a folder, refusing a name the rules do not allow or the reader already uses; the name is trimmed. */
export async function createFolder(
  db: Database,
  userId: string,
  input: { name: string; description: string; readOnly?: boolean },
  now = new Date(),
): Promise<FolderResult> {
  if (!isValidFolderName(input.name)) return { ok: false, error: "invalid-name" };
  const name = input.name.trim();
  if (await nameTaken(db, userId, name)) return { ok: false, error: "exists" };
  const count = await db
    .selectFrom("library_folder")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_FOLDERS) return { ok: false, error: "too-many" };
  const folder = {
    id: crypto.randomUUID(),
    name,
    slug: folderSlug(name),
    description: input.description.trim(),
    readOnly: input.readOnly ?? false,
  };
  try {
    await db
      .insertInto("library_folder")
      .values({
        id: folder.id,
        user_id: userId,
        name,
        name_key: folderNameKey(name),
        slug: folder.slug,
        description: folder.description,
        read_only: folder.readOnly ? 1 : 0,
        created_at: now.toISOString(),
      })
      .execute();
  } catch (error) {
    // The same name saved twice at once: the unique key keeps one.
    if (await nameTaken(db, userId, name)) return { ok: false, error: "exists" };
    throw error;
  }
  return { ok: true, folder: { ...folder, itemCount: 0 } };
}

export async function updateFolder(
  db: Database,
  userId: string,
  folderId: string,
  input: { name: string; description: string },
): Promise<FolderResult> {
  const folder = await ownFolder(db, userId, folderId);
  if (!folder) return { ok: false, error: "missing" };
  if (folder.readOnly) return { ok: false, error: "read-only" };
  if (!isValidFolderName(input.name)) return { ok: false, error: "invalid-name" };
  const name = input.name.trim();
  if (await nameTaken(db, userId, name, folderId)) return { ok: false, error: "exists" };
  const changes = { name, name_key: folderNameKey(name), slug: folderSlug(name), description: input.description.trim() };
  try {
    await db.updateTable("library_folder").set(changes).where("id", "=", folderId).where("user_id", "=", userId).execute();
  } catch (error) {
    if (await nameTaken(db, userId, name, folderId)) return { ok: false, error: "exists" };
    throw error;
  }
  return { ok: true, folder: { ...folder, name, slug: changes.slug, description: changes.description } };
}

/** Deletes a folder; its items stay in the library. */
export async function deleteFolder(db: Database, userId: string, folderId: string): Promise<FolderResult> {
  const folder = await ownFolder(db, userId, folderId);
  if (!folder) return { ok: false, error: "missing" };
  if (folder.readOnly) return { ok: false, error: "read-only" };
  await db.deleteFrom("library_folder").where("id", "=", folderId).where("user_id", "=", userId).execute();
  return { ok: true, folder };
}

/** The reader's gift folder, made the first time a gift reaches them. */
export async function giftFolder(db: Database, userId: string): Promise<Folder> {
  const existing = (await listFolders(db, userId)).find((f) => f.readOnly && f.slug === GIFT_FOLDER.slug);
  if (existing) return existing;
  const made = await createFolder(db, userId, { name: GIFT_FOLDER.name, description: GIFT_FOLDER.description, readOnly: true });
  if (made.ok) return made.folder;
  const raced = (await listFolders(db, userId)).find((f) => f.slug === GIFT_FOLDER.slug);
  if (!raced) throw new Error(`gift folder: ${made.error}`);
  return raced;
}
