import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { z, ZodTypeAny } from "zod";
import type { Database } from "~/server/db/connection";
import type { Editor, LastSave, Listing, ListQuery, SaveResult } from "~/server/desk/catalogue/common";
import { mayAct, type DeskAction } from "~/server/desk/roles";
import type { StaffMember } from "~/server/desk/staff";
import { catalogueQuerySchema } from "~/shared/catalogue-fields";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";
import { auditActor, notFound, requireAction, requireDesk } from "./access.server";
import { changedSinceOpened } from "./conflict";

// What the desk's author, topic and video pages share (ADRs 078, 083): the listing, the page of one
// row with its form, and the form that adds one. The kinds differ only in their domain functions,
// their fields and what their pages show. (A podcast episode's pages, within its series, share
// the forms and the stale message.)

export const CATALOGUE_PAGE_SIZE = 25;

export type CatalogueKind = "author" | "topic" | "video";

/** A row as saved, shown beside a form whose save it refused. */
export interface SavedVersion {
  version: number;
  facts: [string, string][];
}

const KINDS = {
  author: { list: "authors.list", edit: "authors.edit", base: "/desk/authors", added: "Author added." },
  topic: { list: "topics.list", edit: "topics.edit", base: "/desk/topics", added: "Topic added." },
  video: {
    list: "media.list",
    edit: "media.edit",
    base: "/desk/videos",
    added: "Video added. Upload its file and captions on its files page.",
  },
} as const satisfies Record<CatalogueKind, { list: DeskAction; edit: DeskAction; base: string; added: string }>;

/** The staff member saving, as the audit log and the conflict message name them. */
export function deskEditor(staff: StaffMember): Editor {
  return { actor: auditActor(staff), name: `${staff.user.firstName} ${staff.user.lastName}`.trim() || staff.user.email };
}

/** A listing's search words and page from the address; what cannot be read is left out, and said so. */
export function listingQuery(request: Request): { q: string; page: number; problem: string | null } {
  const params = new URL(request.url).searchParams;
  const raw = Object.fromEntries([...params].filter(([name, value]) => (name === "q" || name === "page") && value !== ""));
  const parsed = catalogueQuerySchema.safeParse(raw);
  if (parsed.success) return { q: parsed.data.q ?? "", page: parsed.data.page ?? 1, problem: null };
  return { q: "", page: 1, problem: "The search could not be read and was left out: words up to 200 characters, and a page from 1." };
}

/** Why a save was refused: someone saved since the form was opened (a video's and an episode's too, ADR 083). */
export function staleMessage(current: LastSave, kind: CatalogueKind | "podcast episode"): string {
  return `${changedSinceOpened(kind, current.updatedBy, current.updatedAt)} Nothing of yours was saved: your changes are still in the form, and the saved version is shown beside it. Save again to replace it with yours.`;
}

/** The row an address's id names: a whole number, or none. */
const rowId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

/** The listing's loader: one page of rows, as `item` shows each, and whether the staff member may add one. */
export async function catalogueListing<T, Item>(
  args: LoaderFunctionArgs,
  kind: CatalogueKind,
  list: (db: Database, query: ListQuery) => Promise<Listing<T>>,
  item: (row: T) => Item,
) {
  const staff = await requireDesk(args, KINDS[kind].list);
  const { q, page, problem } = listingQuery(args.request);
  const found = await list(await requestContext(args).db(), { q, page, pageSize: CATALOGUE_PAGE_SIZE });
  return {
    q,
    page,
    problem,
    total: found.total,
    items: found.items.map(item),
    pageSize: CATALOGUE_PAGE_SIZE,
    mayAdd: mayAct(staff.roles, KINDS[kind].edit),
  };
}

/** A listing takes no posts: the 404, once the staff member is known. */
export async function refuseListingPost(args: RequestArgs, kind: CatalogueKind): Promise<never> {
  await requireDesk(args, KINDS[kind].list);
  notFound();
}

/** The row the address names (404 for none), whether the staff member may edit it, and the notice of the save just made. */
export async function catalogueRow<T>(
  args: LoaderFunctionArgs,
  kind: CatalogueKind,
  get: (db: Database, id: number) => Promise<T | undefined>,
) {
  const staff = await requireDesk(args, KINDS[kind].list);
  const id = rowId(args.params.id);
  const db = await requestContext(args).db();
  const row = id === null ? undefined : await get(db, id);
  if (!row) notFound();
  const saved = new URL(args.request.url).searchParams.get("saved");
  const notices: Record<string, string> = {
    created: KINDS[kind].added,
    saved: "Saved.",
    unchanged: "Nothing had changed, so nothing was saved.",
  };
  return {
    row,
    db,
    mayEdit: mayAct(staff.roles, KINDS[kind].edit),
    saved: saved && Object.hasOwn(notices, saved) ? notices[saved]! : null,
  };
}

/**
 * A row's form posted: saved over the version it was opened at, then back to the row's page
 * (Post/Redirect/Get). A rule broken is a 422 with the fields' messages; a stale save a 409 that
 * keeps the editor's text in the form and carries the saved version, to show beside it.
 */
export async function saveCatalogueRow<S extends ZodTypeAny, T extends LastSave>(
  args: ActionFunctionArgs,
  kind: CatalogueKind,
  schema: S,
  save: (db: Database, editor: Editor, id: number, value: z.output<S>, now: Date) => Promise<SaveResult<T>>,
  savedVersion: (row: T) => SavedVersion,
) {
  const staff = await requireDesk(args, KINDS[kind].list);
  requireAction(staff, KINDS[kind].edit);
  const form = await readForm(args.request);
  const id = rowId(args.params.id);
  if (id === null) notFound();
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await save(await requestContext(args).db(), deskEditor(staff), id, submission.value, new Date());
  if (result.ok) return redirect(`${KINDS[kind].base}/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleMessage(result.current, kind)] }, 409, { saved: savedVersion(result.current) });
}

/** The form that adds a row posted: made, then its page; a rule broken is a 422 with the fields' messages. */
export async function createCatalogueRow<S extends ZodTypeAny, T extends { id: number }>(
  args: ActionFunctionArgs,
  kind: CatalogueKind,
  schema: S,
  create: (db: Database, editor: Editor, value: z.output<S>, now: Date) => Promise<SaveResult<T>>,
) {
  const staff = await requireDesk(args, KINDS[kind].edit);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await create(await requestContext(args).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`${KINDS[kind].base}/${made.value.id}?saved=created`, 303);
}
