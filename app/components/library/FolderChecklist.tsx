import type { Folder } from "../../../server/library/folders";
import * as css from "./library.css";

/** The reader's folders as checkboxes (read-only folders cannot take items, so they are left out). */
export function FolderChecklist({ folders, checked, legend }: { folders: Folder[]; checked: string[]; legend: string }) {
  const writable = folders.filter((f) => !f.readOnly);
  return (
    <fieldset className={css.bulk}>
      <legend>{legend}</legend>
      {writable.length === 0 ? <p>You have no folders yet.</p> : null}
      <div className={css.checks}>
        {writable.map((f) => (
          <label key={f.id}>
            <input type="checkbox" name="folderId" value={f.id} defaultChecked={checked.includes(f.id)} /> {f.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
