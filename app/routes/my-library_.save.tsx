import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import type { ContentRef } from "~/server/library/content";
import { contentItem } from "~/server/library/content";
import { FOLDER_EXISTS_MESSAGE, FOLDER_NAME_MESSAGE } from "~/shared/folder-names";
import { createFolder, listFolders } from "~/server/library/folders";
import { saveItem, savedItem } from "~/server/library/items";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import { FolderChecklist } from "~/app/components/library/FolderChecklist";
import * as css from "~/app/components/library/library.css";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { safeRedirectPath, withQueryValue } from "~/app/lib/http/redirects";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { log } from "~/server/log";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";

export const SAVE_FAILED = "There was an error while processing your request, please try again later.";

const refSchema = z.object({ type: z.enum(["article", "video", "podcast"]), id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The item a save names; a malformed or unknown one is a 404. */
async function requireContent(values: { type: unknown; id: unknown }) {
  const ref = refSchema.safeParse(values);
  const item = ref.success ? await contentItem(await db(), ref.data as ContentRef) : undefined;
  if (!ref.success || !item) throw new Response("Nothing to save here", { status: 404 });
  return { ref: ref.data as ContentRef, item };
}

/** Guests who save are asked to register first (spec: saving opens registration), then come back here. */
async function requireReader({ request, context }: RequestArgs, savePath: string) {
  const user = await requestContext({ request, context }).user();
  if (!user) throw redirect(`/register?redirectTo=${encodeURIComponent(savePath)}`);
  return user;
}

const savePathFor = (ref: ContentRef, back: string) =>
  `/my-library/save?${new URLSearchParams({ type: ref.type, id: String(ref.id), redirectTo: back })}`;

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, { title: "Save to My Library", description: "Save an article or video to your library.", path: "/my-library/save" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const { ref, item } = await requireContent({ type: params.get("type"), id: params.get("id") });
  const back = safeRedirectPath(params.get("redirectTo"), item.url);
  const user = await requireReader({ request, context }, savePathFor(ref, back));
  const database = await db();
  const [folders, saved] = await Promise.all([listFolders(database, user.id), savedItem(database, user.id, ref)]);
  return {
    ref,
    item: { title: item.title, url: item.url, contentType: item.contentType },
    back,
    folders,
    savedIn: saved?.folderIds ?? [],
    alreadySaved: saved !== undefined,
    saved: params.get("done") === "saved",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { ref, item } = await requireContent({ type: form.get("type"), id: form.get("id") });
  const back = safeRedirectPath(form.get("redirectTo"), item.url);
  const user = await requireReader({ request, context }, savePathFor(ref, back));
  const viaFetcher = sentByFetcher(form);
  const folderIds = form
    .getAll("folderId")
    .filter((v): v is string => typeof v === "string")
    .slice(0, 100);
  const newFolder = String(form.get("newFolder") ?? "");
  const database = await db();

  if (newFolder !== "") {
    const made = await createFolder(database, user.id, { name: newFolder, description: "" });
    if (!made.ok) {
      const newFolderError =
        made.error === "invalid-name" ? FOLDER_NAME_MESSAGE : made.error === "exists" ? FOLDER_EXISTS_MESSAGE : SAVE_FAILED;
      return data({ failed: true, newFolderError, formError: null }, { status: made.error === "exists" ? 409 : 400 });
    }
    folderIds.push(made.folder.id);
  }
  try {
    await saveItem(database, user.id, ref, folderIds);
  } catch (error) {
    log.error("save to library failed", { error });
    return data({ failed: true, newFolderError: null, formError: SAVE_FAILED }, { status: 500 });
  }
  if (viaFetcher) return data({ saved: true as const });
  return redirect(withQueryValue(savePathFor(ref, back), "done", "saved"), 303);
}

export default function SavePage() {
  const { ref, item, back, folders, savedIn, alreadySaved, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const newFolderError = result && "newFolderError" in result ? result.newFolderError : null;
  const formError = result && "formError" in result ? result.formError : null;
  return (
    <section aria-labelledby="save-title">
      <h1 id="save-title">Save to My Library</h1>
      <p>
        <strong>{item.title}</strong> ({item.contentType})
      </p>
      {saved ? (
        <p className={css.notice} role="status">
          Saved!
        </p>
      ) : alreadySaved ? (
        <p>This is already in your library. Choose more folders for it, or make a new one.</p>
      ) : null}
      {formError ? (
        <p className={forms.formMessage} role="alert">
          {formError}
        </p>
      ) : null}
      <Form method="post" className={forms.form}>
        <input type="hidden" name="type" value={ref.type} />
        <input type="hidden" name="id" value={ref.id} />
        <input type="hidden" name="redirectTo" value={back} />
        <FolderChecklist folders={folders} checked={savedIn} legend="Save into these folders (optional)" />
        <div className={newFolderError ? `${forms.field} ${forms.withError}` : forms.field}>
          <label className={forms.label} htmlFor="new-folder">
            Or create a new folder
          </label>
          <div id="new-folder-hint" className={forms.hint}>
            Up to 30 letters, numbers or spaces
          </div>
          {newFolderError ? (
            <p id="new-folder-error" className={forms.fieldError}>
              {newFolderError}
            </p>
          ) : null}
          <input
            id="new-folder"
            name="newFolder"
            className={forms.input}
            maxLength={60}
            aria-invalid={newFolderError ? true : undefined}
            aria-describedby={newFolderError ? "new-folder-hint new-folder-error" : "new-folder-hint"}
          />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Save
          </button>
          <Link to={back}>
            Back to the {item.contentType === "Video" ? "video" : item.contentType === "Podcast" ? "episode" : "article"}
          </Link>
        </div>
      </Form>
    </section>
  );
}
