import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { FOLDER_EXISTS_MESSAGE, FOLDER_NAME_MESSAGE } from "~/shared/folder-names";
import { createFolder, deleteFolder, listFolders, MAX_FOLDERS, updateFolder } from "~/server/library/folders";
import { addItemsToFolders, discardItems, LIBRARY_PAGE_SIZE, libraryItems } from "~/server/library/items";
import { lastPage, parsePaging } from "~/shared/pagination";
import { libraryFolderPath } from "~/shared/urls";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { BULK_ERRORS, folderSchema } from "./library-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { requireUser, type RequestArgs } from "~/app/lib/context/request-context.server";

export const LIBRARY_PATH = "/my-library";

/** Confirmations after a library action (spec 8), keyed by the `done` value the redirect carries. */
export function libraryNotice(done: string | null, n: number): string | null {
  switch (done) {
    case "saved":
      return "Saved!";
    case "organized":
      return "Folders Updated";
    case "discarded":
      return "Removed from My Library";
    case "added":
      return `${n} item(s) added to folders`;
    case "removed":
      return `${n} item(s) removed from My Library`;
    case "folder-created":
      return "Folder created.";
    case "folder-updated":
      return "Folder updated.";
    case "folder-deleted":
      return "Folder deleted. Its items are still in All Folders.";
    default:
      return null;
  }
}

export type FolderEditState = "new" | "folder" | "delete" | null;

/** The library: all items (no slug, or a slug no folder has) or one folder's, a page at a time. */
export async function loadLibrary({ request, context }: RequestArgs, folderSlug: string | null) {
  const user = await requireUser({ request, context });
  const database = await db();
  const params = new URL(request.url).searchParams;
  const folders = await listFolders(database, user.id);
  const active = folderSlug ? (folders.find((f) => f.slug === folderSlug) ?? null) : null;
  const { page } = parsePaging(params, false);
  const { items, total } = await libraryItems(database, user.id, active?.id ?? null, page);
  const last = lastPage(total, LIBRARY_PAGE_SIZE);
  if (page > last) throw new Response(null, { status: 404 });
  const edit = params.get("edit");
  const n = Number(params.get("n") ?? 0);
  return {
    folders,
    active,
    items,
    total,
    page,
    last,
    canAddFolder: folders.length < MAX_FOLDERS,
    edit: (edit === "new" || ((edit === "folder" || edit === "delete") && active && !active.readOnly) ? edit : null) as FolderEditState,
    notice: libraryNotice(params.get("done"), Number.isInteger(n) && n >= 0 && n <= 1000 ? n : 0),
  };
}

const ids = (form: FormData, name: string) =>
  form
    .getAll(name)
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.slice(0, 64));

/**
 * Every library page's form: folders (create, update, delete) and items (add to folders,
 * remove, discard). Success redirects with a confirmation; a foreign or unknown id is a 404.
 */
export async function libraryAction({ request, context }: RequestArgs) {
  const user = await requireUser({ request, context });
  const form = await readForm(request);
  const database = await db();
  const here = new URL(request.url).pathname;
  const back = (done: string, extra: Record<string, string> = {}, path = here) =>
    redirect(`${path}?${new URLSearchParams({ done, ...extra })}`, 303);
  const notFound = () => new Response("No such folder or item", { status: 404 });

  const discard = form.get("discard");
  if (typeof discard === "string") {
    const n = await discardItems(database, user.id, [discard]);
    if (n === undefined) throw notFound();
    return back(n > 0 ? "discarded" : "removed", { n: String(n) });
  }

  const intent = form.get("intent");
  switch (intent) {
    case "create-folder":
    case "update-folder": {
      const submission = parseWithZod(form, { schema: folderSchema });
      if (submission.status !== "success") return rejectForm(submission, {}, 400, { intent });
      const result =
        intent === "create-folder"
          ? await createFolder(database, user.id, submission.value)
          : await updateFolder(database, user.id, String(form.get("folderId") ?? ""), submission.value);
      if (result.ok)
        return back(intent === "create-folder" ? "folder-created" : "folder-updated", {}, libraryFolderPath(result.folder.slug));
      if (result.error === "invalid-name") return rejectForm(submission, { fieldErrors: { name: [FOLDER_NAME_MESSAGE] } }, 400, { intent });
      if (result.error === "exists") return rejectForm(submission, { fieldErrors: { name: [FOLDER_EXISTS_MESSAGE] } }, 409, { intent });
      if (result.error === "too-many")
        return rejectForm(submission, { formErrors: [`You can keep up to ${MAX_FOLDERS} folders.`] }, 400, { intent });
      if (result.error === "read-only") throw new Response("This folder cannot be changed", { status: 403 });
      throw notFound();
    }
    case "delete-folder": {
      const result = await deleteFolder(database, user.id, String(form.get("folderId") ?? ""));
      if (result.ok) return back("folder-deleted", {}, LIBRARY_PATH);
      if (result.error === "read-only") throw new Response("This folder cannot be deleted", { status: 403 });
      throw notFound();
    }
    case "bulk-add": {
      const items = ids(form, "itemId");
      const folders = ids(form, "folderId");
      if (items.length === 0 || folders.length === 0) {
        return data({ intent, failed: true, bulkError: items.length === 0 ? BULK_ERRORS.noItems : BULK_ERRORS.noFolders }, { status: 400 });
      }
      const n = await addItemsToFolders(database, user.id, items, folders);
      if (n === undefined) throw notFound();
      return back("added", { n: String(n) });
    }
    case "bulk-remove": {
      const items = ids(form, "itemId");
      if (items.length === 0) return data({ intent, failed: true, bulkError: BULK_ERRORS.noItems }, { status: 400 });
      const n = await discardItems(database, user.id, items);
      if (n === undefined) throw notFound();
      return back("removed", { n: String(n) });
    }
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}
