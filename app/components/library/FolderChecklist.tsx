import type { Folder } from "~/server/library/folders";
import { folderChoices } from "~/shared/folder-choices";
import * as css from "./library.css";

/** The reader's folders an item can go in, as checkboxes. */
export function FolderChecklist({ folders, checked, legend }: { folders: Folder[]; checked: string[]; legend: string }) {
  const choices = folderChoices(folders, checked);
  return (
    <fieldset className={css.bulk}>
      <legend>{legend}</legend>
      {choices.length === 0 ? <p>You have no folders yet.</p> : null}
      <div className={css.checks}>
        {choices.map((f) => (
          <label key={f.id}>
            <input type="checkbox" name="folderId" value={f.id} defaultChecked={f.selected} /> {f.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
