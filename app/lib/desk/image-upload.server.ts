import { data } from "@remix-run/node";
import { imageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import type { PictureChange } from "~/server/desk/images";
import type { StaffMember } from "~/server/desk/staff";
import { MAX_UPLOAD_BYTES, storeUpload, UPLOAD_MESSAGES } from "~/server/images/uploads";
import { isStorableText } from "~/server/db/storable-text";
import { readFormBody } from "~/app/lib/forms/read-body.server";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";
import { auditActor, notFound } from "./access.server";
import { setDeskFlash, takeDeskFlash } from "./flash.server";

// The desk's picture pages (an article's hero, an author's photo, an issue's cover): a multipart
// post holding the file and its alt text, or a post that removes the picture. The body is read as
// it arrives and refused once it passes the upload's limit and the room its form takes around it,
// chunked or not; the file is judged by its bytes alone (storeUpload), never by its name or
// stated type.

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

/** What a picture page changes the picture of. */
export interface PictureOwner {
  /** Whether it exists: an upload for one that does not is not stored, and answers 404. */
  exists: () => Promise<boolean>;
  /** Puts an image (or, with null, none) in use; the owner's own missing reason answers 404. */
  set: (actor: AuditActor, imageId: string | null, now: Date) => Promise<PictureChange>;
  /** The page, where a change comes back to (Post/Redirect/Get) with its notice. */
  path: string;
  notices: { uploaded: string; removed: string };
}

/**
 * A picture page's action: uploads a new picture and puts it in use, or removes it, then comes
 * back to the page with a notice; a refused upload answers its 4xx with the message and the alt
 * text typed.
 */
export async function pictureAction(request: Request, staff: StaffMember, db: Database, owner: PictureOwner) {
  const form = await readPictureForm(request);
  const actor = auditActor(staff);
  const now = new Date();
  if (form.intent === "refused") return data({ error: { message: form.message, alt: form.alt } }, { status: form.status });
  let notice: string;
  if (form.intent === "remove") {
    if (!(await owner.set(actor, null, now)).ok) notFound();
    notice = owner.notices.removed;
  } else {
    if (!(await owner.exists())) notFound();
    const uploaded = await uploadAndUse(db, actor, form, (imageId) => owner.set(actor, imageId, now), now);
    if (!uploaded.ok) return data({ error: { message: uploaded.message, alt: form.alt } }, { status: uploaded.status });
    if (!uploaded.change.ok) notFound();
    notice = owner.notices.uploaded;
  }
  const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: notice });
  return redirect(owner.path, { status: 303, headers: { "Set-Cookie": setCookie } });
}

/** A picture page's loader data: what it shows, and the notice a change left for it once. */
export async function withPictureNotice<T extends object>(request: Request, staff: StaffMember, shown: T) {
  const { flash, setCookie } = await takeDeskFlash(request, staff.user.id);
  return data(
    { ...shown, notice: flash?.kind === "notice" ? flash.message : null },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}
