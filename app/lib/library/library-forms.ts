import { z } from "zod";
import { FOLDER_DESCRIPTION_MAX, FOLDER_NAME_MESSAGE, isValidFolderName } from "~/shared/folder-names";

/** A folder's title and description, as the new-folder and edit-folder forms send them. */
export const folderSchema = z.object({
  name: z.string({ required_error: FOLDER_NAME_MESSAGE }).refine(isValidFolderName, FOLDER_NAME_MESSAGE),
  description: z.string().max(FOLDER_DESCRIPTION_MAX, `This field must be less than ${FOLDER_DESCRIPTION_MAX} characters.`).default(""),
});

/** The messages of the library's bulk forms (add to folders, remove). */
export const BULK_ERRORS = {
  noItems: "Select at least one item.",
  noFolders: "Select at least one folder to add the items to.",
};

/** One id or several (a form repeats the field; JSON sends a list). */
const idList = (message: string) =>
  z
    .union([z.string(), z.array(z.string())], { required_error: message })
    .transform((v) => (Array.isArray(v) ? v : [v]).map((id) => id.trim()).filter((id) => id !== ""))
    .pipe(z.array(z.string().max(64)).min(1, message).max(100));

/** A saved item (`id`) and folders (`listIds`): the service API's bulk-update. */
export const bulkUpdateSchema = z.object({
  id: z.string({ required_error: BULK_ERRORS.noItems }).trim().min(1, BULK_ERRORS.noItems).max(64),
  listIds: idList(BULK_ERRORS.noFolders),
});
