import type { AppLoadContext } from "@remix-run/node";
import type { Database } from "~/server/db/connection";
import type { DeskAuthor } from "~/server/desk/catalogue/authors";
import type { Editor, LastSave, Listing, ListQuery, SaveResult } from "~/server/desk/catalogue/common";
import type { DeskTopic } from "~/server/desk/catalogue/topics";
import { keyActor, type ApiKey } from "~/server/desk/api-keys";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { ADMIN_PAGE_SIZE } from "./groups/admin";
import { apiJson, notFoundAnswer, savedAnswer } from "./handler.server";

// The Admin API's authors and topics (ADR 078): who saves through a key, the answers a save
// gets, and the handlers of the four calls each kind has, made from its domain functions.

/** The Admin API's one 404 (handler.server.ts), here too for the routes that import it from here. */
export { notFoundAnswer };

/** A key saves in its own name, as the audit log names it. */
export function keyEditor(key: ApiKey): Editor {
  const actor = keyActor(key);
  return { actor, name: actor.label };
}

export const apiAuthor = (a: DeskAuthor) => ({
  id: a.id,
  slug: a.slug,
  name: a.name,
  role: a.role,
  bio: a.bio,
  version: a.version,
  updatedAt: a.updatedAt,
  updatedBy: a.updatedBy,
});

export const apiTopic = (t: DeskTopic) => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  description: t.description,
  subject: t.subject,
  subscriberOnly: t.subscriberOnly,
  executiveOnly: t.executiveOnly,
  url: new URL(t.path, config().siteUrl).href,
  formerSlugs: t.formerSlugs,
  version: t.version,
  updatedAt: t.updatedAt,
  updatedBy: t.updatedBy,
});

type Asked = { request: Request; context: AppLoadContext };
type Row = LastSave & { id: number };

const database = (call: Asked) => requestContext(call).db();

/** GET: one page of rows by name (`q`, `page`), each with how many articles name it. */
export const listRows =
  <T extends Row & { articles: number }>(list: (db: Database, query: ListQuery) => Promise<Listing<T>>, show: (row: T) => object) =>
  async (call: Asked & { query: { q?: string; page?: number } }) => {
    const page = call.query.page ?? 1;
    const found = await list(await database(call), { q: call.query.q || undefined, page, pageSize: ADMIN_PAGE_SIZE });
    return apiJson({
      page,
      pageSize: ADMIN_PAGE_SIZE,
      total: found.total,
      items: found.items.map((row) => ({ ...show(row), articles: row.articles })),
    });
  };

/** POST: a new row, 201 at `{base}/{id}`. */
export const createRow =
  <F, T extends Row>(
    what: string,
    create: (db: Database, editor: Editor, fields: F, now: Date) => Promise<SaveResult<T>>,
    show: (row: T) => object,
    base: string,
  ) =>
  async (call: Asked & { body: F; key: ApiKey }) =>
    savedAnswer(await create(await database(call), keyEditor(call.key), call.body, new Date()), what, show, (row) => `${base}/${row.id}`);

/** GET one row by id. */
export const getRow =
  <T>(what: string, get: (db: Database, id: number) => Promise<T | undefined>, show: (row: T) => object) =>
  async (call: Asked & { params: { id: number } }) => {
    const row = await get(await database(call), call.params.id);
    return row ? apiJson(show(row)) : notFoundAnswer(what);
  };

/** PATCH one row over the `version` read. */
export const updateRow =
  <P, T extends Row>(
    what: string,
    update: (db: Database, editor: Editor, id: number, patch: P, now: Date) => Promise<SaveResult<T>>,
    show: (row: T) => object,
  ) =>
  async (call: Asked & { params: { id: number }; body: P; key: ApiKey }) =>
    savedAnswer(await update(await database(call), keyEditor(call.key), call.params.id, call.body, new Date()), what, show);
