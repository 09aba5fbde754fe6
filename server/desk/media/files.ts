import fs from "node:fs";
import type { MediaFile } from "~/server/media";

// What the desk and the Admin API say of a video's or an episode's file (ADR 083): the upload
// readers get, or else whether the seed content has a file for it.

export interface AttachedFile {
  id: string;
  /** As decoded from its bytes. */
  contentType: string;
  extension: string;
  bytes: number;
  durationSeconds: number | null;
  sha256: string;
  uploadedAt: string;
  uploadedBy: string;
}

/** Where readers' file comes from: an upload, the seed content's file, or nowhere yet. */
export type FileSource = { kind: "upload"; file: AttachedFile } | { kind: "seed" } | { kind: "none" };

export const attachedFile = (file: MediaFile): AttachedFile => ({
  id: file.id,
  contentType: file.contentType,
  extension: file.extension,
  bytes: file.bytes,
  durationSeconds: file.durationSeconds,
  sha256: file.sha256,
  uploadedAt: file.uploadedAt,
  uploadedBy: file.uploadedBy,
});

/** The audit log's account of a file: enough to know it again. */
export const auditedFile = (file: AttachedFile | null) =>
  file && { id: file.id, contentType: file.contentType, bytes: file.bytes, sha256: file.sha256, durationSeconds: file.durationSeconds };

export function fileSource(file: AttachedFile | null, seedPath: string): FileSource {
  if (file) return { kind: "upload", file };
  return fs.existsSync(seedPath) ? { kind: "seed" } : { kind: "none" };
}
