import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { Folder } from "~/server/library/folders";
import type { LibraryItem } from "~/server/library/items";
import { libraryFolderPath } from "~/shared/urls";
import type { folderSchema } from "~/app/lib/library/library-forms";
import type { loadLibrary } from "~/app/lib/library/page.server";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { Pagination } from "~/app/components/Pagination";
import * as css from "./library.css";
import * as controls from "~/app/components/controls.css";

const loadFolderSchema: SchemaLoader<typeof folderSchema> = () =>
  import("~/app/lib/library/library-forms").then((forms) => forms.folderSchema);

type LibraryData = Awaited<ReturnType<typeof loadLibrary>>;
type ActionData = { intent?: string; result?: SubmissionResult<string[]>; bulkError?: string } | undefined;

export const EMPTY_LIBRARY =
  "Welcome to My Library. Use Save on any article or video to keep it here, then sort what you keep into folders of your own.";
export const EMPTY_FOLDER = "Your new folder is ready. Add items to it from All Folders, or choose it when you save an article or video.";

/** The library page: the folder list beside the items of All Folders or one folder. */
export function LibraryView() {
  const data = useLoaderData<LibraryData>();
  const action = useActionData<ActionData>();
  const location = useLocation();
  const { folders, active, items, total, page, last, notice } = data;
  // A failed folder form comes back open, with its errors.
  const edit = action?.intent === "create-folder" ? "new" : action?.intent === "update-folder" ? "folder" : data.edit;
  const here = active ? libraryFolderPath(active.slug) : "/my-library";
  // All Folders is the layout's index route: a post to it names the index explicitly.
  const formAction = active ? here : "/my-library?index";
  return (
    <div className={css.library}>
      <nav className={css.folders} aria-labelledby="folders-title">
        <h2 id="folders-title">Folders</h2>
        <ul className={css.folderList}>
          <li>
            <Link
              to="/my-library"
              className={`${css.folderLink} ${active ? "" : css.activeFolder}`}
              aria-current={active ? undefined : "page"}
            >
              <span>All Folders</span>
            </Link>
          </li>
          {folders.map((f) => (
            <li key={f.id}>
              <Link
                to={libraryFolderPath(f.slug)}
                className={`${css.folderLink} ${active?.id === f.id ? css.activeFolder : ""}`}
                aria-current={active?.id === f.id ? "page" : undefined}
              >
                <span>
                  {f.readOnly ? (
                    <span className={css.giftIcon} role="img" aria-label="Gift folder">
                      🎁
                    </span>
                  ) : null}
                  {f.name}
                </span>
                <span className={css.count}>
                  {f.itemCount}
                  <span className="visually-hidden"> items</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
        {edit === "new" ? (
          <FolderForm
            key="new"
            intent="create-folder"
            action={formAction}
            result={action?.intent === "create-folder" ? action.result : undefined}
            cancel={here}
          />
        ) : data.canAddFolder ? (
          <Link to={`${here}?edit=new`}>New folder</Link>
        ) : null}
      </nav>

      <section aria-labelledby="items-title">
        <h2 id="items-title">{active?.name ?? "All Folders"}</h2>
        {active?.description ? <p>{active.description}</p> : null}
        {notice ? (
          <p className={css.notice} role="status">
            {notice}
          </p>
        ) : null}
        {active && !active.readOnly ? (
          edit === "folder" ? (
            <FolderForm
              key={`edit-${active.id}`}
              intent="update-folder"
              folder={active}
              action={here}
              result={action?.intent === "update-folder" ? action.result : undefined}
              cancel={here}
            />
          ) : edit === "delete" ? (
            <DeleteFolder folder={active} action={here} />
          ) : (
            <p className={css.itemActions}>
              <Link to={`${here}?edit=folder`}>Edit folder</Link>
              <Link to={`${here}?edit=delete`}>Delete folder</Link>
            </p>
          )
        ) : null}
        {items.length === 0 ? (
          <p className={css.emptyState}>{active ? EMPTY_FOLDER : EMPTY_LIBRARY}</p>
        ) : (
          // A fresh form after each action: with JS the page is not reloaded, and ticks would linger.
          <ItemsForm
            key={location.key}
            items={items}
            total={total}
            folders={folders}
            action={formAction}
            back={here}
            error={action?.bulkError}
          />
        )}
        <Pagination current={page} last={last} href={(n) => (n === 1 ? here : `${here}?page=${n}`)} label="Library pages" />
      </section>
    </div>
  );
}

function FolderForm({
  intent,
  folder,
  action,
  result,
  cancel,
}: {
  intent: "create-folder" | "update-folder";
  folder?: Folder;
  action: string;
  result: SubmissionResult<string[]> | undefined;
  cancel: string;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm(
    intent,
    loadFolderSchema,
    result,
    folder ? { name: folder.name, description: folder.description } : undefined,
  );
  return (
    <>
      <ErrorSummary items={summary} />
      <Form method="post" action={action} {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="intent" value={intent} />
        {folder ? <input type="hidden" name="folderId" value={folder.id} /> : null}
        <TextField meta={fields.name} label={folder ? "Folder title" : "New folder title"} hint="Up to 30 letters, numbers or spaces" />
        <TextField meta={fields.description} label="Description (optional)" />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Save
          </button>
          <Link to={cancel}>Cancel</Link>
        </div>
      </Form>
    </>
  );
}

function DeleteFolder({ folder, action }: { folder: Folder; action: string }) {
  return (
    <Form method="post" action={action} className={css.bulk}>
      <input type="hidden" name="intent" value="delete-folder" />
      <input type="hidden" name="folderId" value={folder.id} />
      <p>Delete the folder “{folder.name}”? Its items stay in All Folders.</p>
      <div className={css.buttons}>
        <button type="submit" className={primaryButton}>
          Yes
        </button>
        <Link to={action}>No</Link>
      </div>
    </Form>
  );
}

/** The items with a checkbox each, the bulk actions, and each item's own actions. */
function ItemsForm({
  items,
  total,
  folders,
  action,
  back,
  error,
}: {
  items: LibraryItem[];
  total: number;
  folders: Folder[];
  action: string;
  back: string;
  error?: string;
}) {
  const writable = folders.filter((f) => !f.readOnly);
  return (
    <Form method="post" action={action} id="library-items">
      <p className={css.itemMeta}>
        {total} {total === 1 ? "item" : "items"}
      </p>
      {error ? (
        <p className={forms.formMessage} role="alert">
          {error}
        </p>
      ) : null}
      <ul className={css.items}>
        {items.map((entry) => (
          <li key={entry.id} className={css.item}>
            <input type="checkbox" name="itemId" value={entry.id} id={`item-${entry.id}`} aria-label={`Select ${entry.item.title}`} />
            <img className={css.thumb} src={entry.item.image} alt="" width={128} height={72} loading="lazy" />
            <div>
              <p className={css.itemMeta}>
                {entry.item.topic.name} · {entry.item.contentType}
              </p>
              <h3 className={css.itemTitle}>
                <Link to={entry.item.url}>{entry.item.title}</Link>
              </h3>
              {entry.item.authors.length > 0 ? <p className={css.itemMeta}>by {entry.item.authors.map((a) => a.name).join(", ")}</p> : null}
              <div className={css.itemActions}>
                {entry.readOnly ? (
                  <span className={css.itemMeta}>A gift: kept in your library</span>
                ) : (
                  <>
                    <Link to={`/my-library/organize/${entry.id}?redirectTo=${encodeURIComponent(back)}`}>
                      Organize<span className="visually-hidden"> {entry.item.title}</span>
                    </Link>
                    <button type="submit" name="discard" value={entry.id} className={controls.linkButton}>
                      Discard<span className="visually-hidden"> {entry.item.title}</span>
                    </button>
                  </>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <fieldset className={css.bulk}>
        <legend>With the selected items</legend>
        {writable.length > 0 ? (
          <>
            <p id="bulk-folders-label">Add them to these folders:</p>
            <div className={css.checks} role="group" aria-labelledby="bulk-folders-label">
              {writable.map((f) => (
                <label key={f.id}>
                  <input type="checkbox" name="folderId" value={f.id} /> {f.name}
                </label>
              ))}
            </div>
          </>
        ) : null}
        <div className={css.buttons}>
          {writable.length > 0 ? (
            <button type="submit" name="intent" value="bulk-add" className={primaryButton}>
              Add to folders
            </button>
          ) : null}
          <button type="submit" name="intent" value="bulk-remove" className={forms.secondaryButton}>
            Remove from My Library
          </button>
        </div>
      </fieldset>
    </Form>
  );
}
