// The store's catalogue at the desk (ADR 091): products, their formats and prices, and their files.
import type { ImageStorage } from "~/server/adapters/image-storage";
import { BucketError } from "~/server/adapters/bucket";
import type { Database } from "~/server/db/connection";
import { log } from "~/server/log";
import { deleteMediaFile, storeMediaFile } from "~/server/media";
import { MEDIA_MESSAGES } from "~/shared/media-files";
import type { Editor } from "../catalogue/common";
import type { UploadResult } from "../media";
import { getDeskAvailability, setAvailabilityFile, type DeskAvailability } from "./availabilities";

export {
  createAvailability,
  getDeskAvailability,
  PAST_START,
  saveAvailability,
  schedulePrice,
  withdrawPrice,
  type DeskAvailability,
} from "./availabilities";
export {
  createProduct,
  getDeskProduct,
  listDeskProducts,
  productChoices,
  saveProduct,
  type DeskAvailabilitySummary,
  type DeskProduct,
  type ProductListing,
} from "./products";

/**
 * An upload made the download file of a digital format: stored as it arrives, then put in use.
 * An unknown format or one that is not digital stores nothing; a bucket that fails leaves nothing.
 */
export async function uploadAvailabilityFile(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  productId: number,
  availabilityId: number,
  source: AsyncIterable<Uint8Array>,
  now: Date,
  options: { maxBytes?: number } = {},
): Promise<UploadResult<DeskAvailability>> {
  const availability = await getDeskAvailability(db, productId, availabilityId, now);
  if (!availability) return { ok: false, reason: "not-found" };
  if (!availability.digital) return { ok: false, reason: "wrong-type", message: "Only a digital format has a download file." };
  try {
    const stored = await storeMediaFile(db, storage, editor.actor.label, "download", source, now, options);
    if (!stored.ok) return stored;
    const set = await setAvailabilityFile(db, storage, editor, productId, availabilityId, stored.file, now);
    if (!set.ok) {
      await deleteMediaFile(db, storage, stored.file.id);
      return set.reason === "not-found" ? set : { ok: false, reason: "wrong-type", message: set.message };
    }
    return set;
  } catch (error) {
    if (!(error instanceof BucketError)) throw error;
    log.error("An uploaded download file could not be written to the bucket", { error: error.message });
    return { ok: false, reason: "unavailable", message: MEDIA_MESSAGES.unavailable };
  }
}
