// The folder name rules (spec 5), shared with the browser's form checks.

export const FOLDER_NAME_MESSAGE = "Folder title must be 30 characters or less and consisting of English letters, numbers or spaces.";
export const FOLDER_EXISTS_MESSAGE = "A folder with this title already exists.";
export const FOLDER_DESCRIPTION_MAX = 200;

/** 1 to 30 letters, digits or spaces, and not only spaces. */
export const isValidFolderName = (name: string) => /^[A-Za-z0-9 ]{1,30}$/.test(name) && name.trim() !== "";

/** Names are unique ignoring case and spaces. */
export const folderNameKey = (name: string) => name.toLowerCase().replace(/\s+/g, "");
