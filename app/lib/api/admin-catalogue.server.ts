import type { DeskAuthor } from "~/server/desk/catalogue/authors";
import type { Editor, LastSave, SaveResult } from "~/server/desk/catalogue/common";
import type { DeskTopic } from "~/server/desk/catalogue/topics";
import { keyActor, type ApiKey } from "~/server/desk/api-keys";
import { config } from "~/app/lib/context/db.server";
import { apiJson, conflictAnswer, invalidFields, notFoundAnswer } from "./handler.server";

// The Admin API's authors and topics (ADR 078): who saves through a key, and the answers a save gets.

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

/** What a create or a save answers: the row (201 at its address for a new one), 404, 400 with the fields, or 409 with what is there now. */
export function savedAnswer<T extends LastSave & { id: number }>(
  result: SaveResult<T>,
  what: string,
  show: (row: T) => object,
  created?: (row: T) => string,
): Response {
  if (result.ok) {
    if (!created) return apiJson(show(result.value));
    return apiJson(show(result.value), { status: 201, headers: { Location: created(result.value) } });
  }
  if (result.reason === "not-found") return notFoundAnswer(what);
  if (result.reason === "invalid") return invalidFields(result.fields);
  const { current } = result;
  return conflictAnswer(what, show(current), current.updatedBy ?? "someone else", current.updatedAt ?? "");
}
