import type { Database } from "~/server/db/connection";
import type { ReadingListFields } from "~/shared/curation-fields";
import { articlePath } from "~/shared/urls";
import type { AuditActor } from "./audit";
import {
  createReadingList,
  findArticle,
  getDeskReadingList,
  listDeskReadingLists,
  saveReadingList,
  type DeskReadingList,
  type ReadingListResult,
} from "./curation";

// Reading lists as the Admin API answers with them and takes them (issue 38): articles by slug
// or address, addresses made absolute.

export interface ApiReadingList {
  id: number;
  slug: string;
  name: string;
  description: string;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
  url: string;
  items: { slug: string; title: string; status: string; url: string | null }[];
}

export type ApiListResult =
  | { ok: true; list: ApiReadingList }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string[]> }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "conflict"; current: ApiReadingList; by: string; at: string };

export function apiReadingList(list: DeskReadingList, siteUrl: string): ApiReadingList {
  return {
    id: list.id,
    slug: list.slug,
    name: list.name,
    description: list.description,
    version: list.version,
    updatedAt: list.updatedAt,
    updatedBy: list.updatedBy,
    url: new URL(list.path, siteUrl).href,
    items: list.items.map((item) => ({
      slug: item.slug,
      title: item.title,
      status: item.status,
      url: item.status === "published" ? new URL(articlePath({ ...yearMonth(item.published), slug: item.slug }), siteUrl).href : null,
    })),
  };
}

const yearMonth = (published: string) => ({ year: Number(published.slice(0, 4)), month: Number(published.slice(5, 7)) });

export async function listApiReadingLists(db: Database, siteUrl: string) {
  return (await listDeskReadingLists(db)).map((list) => ({
    id: list.id,
    slug: list.slug,
    name: list.name,
    size: list.size,
    version: list.version,
    updatedAt: list.updatedAt,
    url: new URL(`/reading-lists/${list.slug}`, siteUrl).href,
  }));
}

export async function getApiReadingList(db: Database, id: number, siteUrl: string): Promise<ApiReadingList | undefined> {
  const list = await getDeskReadingList(db, id);
  return list && apiReadingList(list, siteUrl);
}

/** The articles' ids for these references, or the field error naming the first that is none. */
async function resolveItems(db: Database, refs: readonly string[]): Promise<{ ids: number[] } | { error: string }> {
  const ids: number[] = [];
  for (const ref of refs) {
    const article = await findArticle(db, ref);
    if (!article) return { error: `No article has the address or slug “${ref}”.` };
    ids.push(article.id);
  }
  return { ids };
}

function answer(result: ReadingListResult, siteUrl: string): ApiListResult {
  if (result.ok) return { ok: true, list: apiReadingList(result.list, siteUrl) };
  if (result.reason === "conflict") return { ...result, current: apiReadingList(result.current, siteUrl) };
  return result;
}

export async function createApiReadingList(
  db: Database,
  actor: AuditActor,
  input: ReadingListFields & { items: string[] },
  siteUrl: string,
  now: Date,
): Promise<ApiListResult> {
  const { items, ...fields } = input;
  const resolved = await resolveItems(db, items);
  if ("error" in resolved) return { ok: false, reason: "invalid", fieldErrors: { items: [resolved.error] } };
  return answer(await createReadingList(db, actor, { ...fields, articleIds: resolved.ids }, now), siteUrl);
}

/** Saves the fields sent over the list's own, if it is still at `version`. */
export async function updateApiReadingList(
  db: Database,
  actor: AuditActor,
  id: number,
  input: Partial<ReadingListFields> & { version: number; items?: string[] },
  siteUrl: string,
  now: Date,
): Promise<ApiListResult> {
  const current = await getDeskReadingList(db, id);
  if (!current) return { ok: false, reason: "missing" };
  let ids = current.items.map((item) => item.id);
  if (input.items) {
    const resolved = await resolveItems(db, input.items);
    if ("error" in resolved) return { ok: false, reason: "invalid", fieldErrors: { items: [resolved.error] } };
    ids = resolved.ids;
  }
  const change = {
    name: input.name ?? current.name,
    slug: input.slug ?? current.slug,
    description: input.description ?? current.description,
    articleIds: ids,
  };
  return answer(await saveReadingList(db, actor, id, input.version, change, now), siteUrl);
}
