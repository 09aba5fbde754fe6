import { imageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import type { PictureChange } from "~/server/desk/images";
import { MAX_UPLOAD_BYTES, storeUpload, UPLOAD_MESSAGES } from "~/server/images/uploads";
import { isStorableText } from "~/server/db/storable-text";
import { readFormBody } from "~/app/lib/forms/read-body.server";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";

// The desk's image forms (an article's hero, an author's photo): a multipart post holding the
// file and its alt text, or a post that removes the picture. The body is read as it arrives and
// refused once it passes the upload's limit and the room its form takes around it, chunked or
// not; the file is judged by its bytes alone (storeUpload), never by its name or stated type.

export const UPLOAD_REFUSED = UPLOAD_MESSAGES["not-an-image"];
export const ALT_MAX = 300;
export const ALT_TOO_LONG = `Describe the image in up to ${ALT_MAX} characters.`;

/** The multipart form around the file: boundaries, each part's headers, the intent and the alt text. */
const FORM_OVERHEAD = 16 * 1024;
export const MAX_UPLOAD_BODY = MAX_UPLOAD_BYTES + FORM_OVERHEAD;

export type PictureForm =
  | { intent: "upload"; bytes: Uint8Array; alt: string }
  | { intent: "remove" }
  | { intent: "refused"; status: number; message: string; alt: string };

const refused = (status: number, message: string, alt = ""): PictureForm => ({ intent: "refused", status, message, alt });

/** Reads an image form; refuses another site's post (403) before anything is read. */
export async function readPictureForm(request: Request): Promise<PictureForm> {
  refuseCrossSite(request);
  const form = await readFormBody(request, { maxBytes: MAX_UPLOAD_BODY, maxFields: 10 });
  if (form === "too-large") return refused(413, UPLOAD_REFUSED);
  if (typeof form === "string") return refused(400, UPLOAD_REFUSED);
  const intent = form.get("intent");
  if (intent === "remove") return { intent: "remove" };
  const altField = form.get("alt");
  const alt = typeof altField === "string" && isStorableText(altField) ? altField.trim() : "";
  if (intent !== "upload") return refused(400, UPLOAD_REFUSED, alt);
  if (alt.length > ALT_MAX) return refused(400, ALT_TOO_LONG, alt.slice(0, ALT_MAX));
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0) return refused(400, UPLOAD_REFUSED, alt);
  return { intent: "upload", bytes: new Uint8Array(await file.arrayBuffer()), alt };
}

export type UploadOutcome = { ok: true; change: PictureChange } | { ok: false; status: number; message: string };

/** Stores an upload and puts it in use through `use`; a refused file is a 413 (too large) or 422. */
export async function uploadAndUse(
  db: Database,
  actor: AuditActor,
  upload: { bytes: Uint8Array; alt: string },
  use: (imageId: string) => Promise<PictureChange>,
  now: Date,
): Promise<UploadOutcome> {
  const stored = await storeUpload(db, imageStorage(), actor, upload.bytes, now, { alt: upload.alt });
  if (!stored.ok) return { ok: false, status: stored.reason === "too-large" ? 413 : 422, message: stored.message };
  return { ok: true, change: await use(stored.image.id) };
}
