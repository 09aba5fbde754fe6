import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { listFolders } from "~/server/library/folders";
import { ownLibraryItem, setItemFolders } from "~/server/library/items";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import { FolderChecklist } from "~/app/components/library/FolderChecklist";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { safeRedirectPath, withQueryValue } from "~/app/lib/http/redirects";
import { requireUser, type RequestArgs } from "~/app/lib/context/request-context.server";

/** The reader's own item; another reader's or an unknown id is a 404. */
async function requireItem({ request, context }: RequestArgs, itemId: string | undefined) {
  const user = await requireUser({ request, context });
  const item = await ownLibraryItem(await db(), user.id, (itemId ?? "").slice(0, 64));
  if (!item) throw new Response("No such item in your library", { status: 404 });
  if (item.readOnly) throw new Response("A gift stays where it is", { status: 403 });
  return { user, item };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, item } = await requireItem({ request, context }, params.itemId);
  const back = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/my-library");
  return { item, folders: await listFolders(await db(), user.id), back };
}

/** Puts the item in exactly the folders ticked (spec: organize, "Folders Updated"). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user, item } = await requireItem({ request, context }, params.itemId);
  const folderIds = form
    .getAll("folderId")
    .filter((v): v is string => typeof v === "string")
    .slice(0, 100);
  await setItemFolders(await db(), user.id, item.id, folderIds);
  return redirect(withQueryValue(safeRedirectPath(form.get("redirectTo"), "/my-library"), "done", "organized"), 303);
}

export default function OrganizeItem() {
  const { item, folders, back } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="organize-title">
      <h2 id="organize-title">Organize “{item.item.title}”</h2>
      <Form method="post" className={forms.form}>
        <input type="hidden" name="redirectTo" value={back} />
        <FolderChecklist folders={folders} checked={item.folderIds} legend="Keep it in these folders" />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Update folders
          </button>
          <Link to={back}>Cancel</Link>
        </div>
      </Form>
    </section>
  );
}
