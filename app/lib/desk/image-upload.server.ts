import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { imageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import type { PictureChange } from "~/server/desk/images";
import type { DeskAction } from "~/server/desk/roles";
import { MAX_UPLOAD_BYTES, storeUpload, UPLOAD_MESSAGES } from "~/server/images/uploads";
import { isStorableText } from "~/server/db/storable-text";
import { requestContext } from "~/app/lib/context/request-context.server";
import { readFormBody } from "~/app/lib/forms/read-body.server";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";
import { auditActor, notFound, requireDesk } from "./access.server";
import { setDeskFlash, takeDeskFlash } from "./flash.server";

// The desk's image pages (an article's hero, an author's photo, an issue's cover) and their
// forms: a multipart post holding the file and its alt text, or a post that removes the picture.
// The body is read as it arrives and refused once it passes the upload's limit and the room its
// form takes around it, chunked or not; the file is judged by its bytes alone (storeUpload),
// never by its name or stated type.

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
async function readPictureForm(request: Request): Promise<PictureForm> {
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

type UploadOutcome = { ok: true; change: PictureChange } | { ok: false; status: number; message: string };

/** Stores an upload and puts it in use through `use`; a refused file is a 413 (too large) or 422. */
async function uploadAndUse(
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

/** A desk page that changes one picture: an article's hero image, an author's photo, an issue's cover. */
export interface PicturePage<Key, Subject> {
  /** What the staff member's roles must allow, to see the page and to post. */
  action: DeskAction;
  /** What the address names; the 404 for an address that can name nothing. */
  key: (params: LoaderFunctionArgs["params"]) => Key;
  find: (db: Database, key: Key) => Promise<Subject | undefined>;
  /** Puts the image in use, or none (null). */
  set: (db: Database, actor: AuditActor, key: Key, imageId: string | null, now: Date) => Promise<PictureChange>;
  /** The page's own address, where a post leads back to. */
  path: (key: Key) => string;
  /** The notices after an upload and after a removal. */
  uploaded: string;
  removed: string;
}

/** The page's loader: what the picture belongs to (404 for nothing), and the notice of the post just made. */
export async function loadPicturePage<Key, Subject>(args: LoaderFunctionArgs, page: PicturePage<Key, Subject>) {
  const staff = await requireDesk(args, page.action);
  const subject = await page.find(await requestContext(args).db(), page.key(args.params));
  if (!subject) notFound();
  const { flash, setCookie } = await takeDeskFlash(args.request, staff.user.id);
  return data(
    { subject, notice: flash?.kind === "notice" ? flash.message : null },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

/**
 * The page's action: an upload put in use, or the picture removed, then back to the page with a
 * notice (Post/Redirect/Get); a refused file answers the page again with why, and the alt text kept.
 */
export async function postPicture<Key, Subject>(args: ActionFunctionArgs, page: PicturePage<Key, Subject>) {
  const staff = await requireDesk(args, page.action);
  const key = page.key(args.params);
  const form = await readPictureForm(args.request);
  const database = await requestContext(args).db();
  const actor = auditActor(staff);
  const now = new Date();
  if (form.intent === "refused") return data({ error: { message: form.message, alt: form.alt } }, { status: form.status });
  const done = async (text: string) => {
    const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: text });
    return redirect(page.path(key), { status: 303, headers: { "Set-Cookie": setCookie } });
  };
  if (form.intent === "remove") {
    const removed = await page.set(database, actor, key, null, now);
    if (!removed.ok) notFound();
    return done(page.removed);
  }
  // An unknown subject stores nothing.
  if (!(await page.find(database, key))) notFound();
  const uploaded = await uploadAndUse(database, actor, form, (imageId) => page.set(database, actor, key, imageId, now), now);
  if (!uploaded.ok) return data({ error: { message: uploaded.message, alt: form.alt } }, { status: uploaded.status });
  if (!uploaded.change.ok) notFound();
  return done(page.uploaded);
}
