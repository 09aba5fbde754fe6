// Uploaded media files (ADR 083): videos, captions and podcast audio, judged by their bytes and
// kept in chunks by the uploads' storage (ADR 077), for the desk, the Admin API and the media routes.
export { mediaFile, openMediaFile, type MediaFile } from "./read";
export {
  CHUNK_BYTES,
  deleteMediaFile,
  removeAbandonedUploads,
  storeMediaFile,
  streamPieces,
  type MediaRefusal,
  type StoreMediaResult,
} from "./store";
