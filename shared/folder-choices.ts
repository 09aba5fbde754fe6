/** A folder as the checklist of folders an item can go in shows it. */
export interface FolderChoice {
  id: string;
  name: string;
  selected: boolean;
}

/**
 * The folders an item can be put in, each `selected` when `holding` names it: read-only folders
 * (the gift folder) take no items, so they are left out.
 */
export function folderChoices(
  folders: readonly { id: string; name: string; readOnly: boolean }[],
  holding: readonly string[],
): FolderChoice[] {
  return folders.filter((f) => !f.readOnly).map((f) => ({ id: f.id, name: f.name, selected: holding.includes(f.id) }));
}
