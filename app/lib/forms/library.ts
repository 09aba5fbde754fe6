import { z } from "zod";
import { FOLDER_DESCRIPTION_MAX, FOLDER_NAME_MESSAGE, isValidFolderName } from "../../../shared/folder-names";

/** A folder's title and description, as the new-folder and edit-folder forms send them. */
export const folderSchema = z.object({
  name: z.string({ required_error: FOLDER_NAME_MESSAGE }).refine(isValidFolderName, FOLDER_NAME_MESSAGE),
  description: z.string().max(FOLDER_DESCRIPTION_MAX, `This field must be less than ${FOLDER_DESCRIPTION_MAX} characters.`).default(""),
});
