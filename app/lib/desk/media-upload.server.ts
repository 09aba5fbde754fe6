import { unstable_parseMultipartFormData } from "@remix-run/node";
import type { FileSource, UploadResult } from "~/server/desk/media";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaKind } from "~/shared/media-files";
import { durationText } from "~/shared/media-vocabulary";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";
import { streamedBody } from "~/app/lib/forms/read-body.server";
import { deskTime, fileSize } from "./format";

// The desk's media forms (ADR 083): a multipart post of an `intent` (which file it is) and then
// the file. The file part is handed, as it arrives, to the store, which keeps it a chunk at a
// time: a post of hundreds of megabytes is never held in memory. What comes around the file is
// bounded too: the form's other parts before it (a few fields), and what follows it is not read.

/** Room for the form's parts and their headers besides the file, before it and after it. */
const FORM_ROOM = 256 * 1024;
/** Fields the form has besides the file (the intent); more is not a form of ours. */
const MAX_FIELDS = 8;
const FIELD_BYTES = 1024;

export type MediaFormResult<T> =
  { ok: true; intent: string; stored: UploadResult<T> } | { ok: false; status: number; message: string; intent: string | null };

/** Stops the parsing once the file has been handed on, and refuses what is not a form of ours. */
class Stop extends Error {
  constructor(readonly refusal?: { status: number; message: string }) {
    super("stop");
  }
}

/** The request's body, counted as it is read: an error once the form around the file passes its room. */
function guarded(body: ReadableStream<Uint8Array>, allowance: () => number, overflowed: () => void): ReadableStream<Uint8Array> {
  let read = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > allowance()) {
          overflowed();
          controller.error(new Error("the form is larger than its file allows"));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Reads a media form and hands its file to `store` with the intent sent before it; `kind` says
 * which limit the file has, `intents` which intents there are. Another site's post is refused
 * (403) before anything is read.
 */
export async function readMediaForm<T>(
  request: Request,
  kindOf: (intent: string) => MediaKind | undefined,
  store: (intent: string, file: AsyncIterable<Uint8Array>) => Promise<UploadResult<T>>,
): Promise<MediaFormResult<T>> {
  refuseCrossSite(request);
  let intent: string | null = null;
  const refused = (status: number, message: string): MediaFormResult<T> => ({ ok: false, status, message, intent });
  const unreadable = MEDIA_MESSAGES.unreadable;
  const raw = streamedBody(request);
  if (!raw || !/^multipart\/form-data;\s*boundary=/i.test(request.headers.get("Content-Type") ?? ""))
    return refused(400, MEDIA_MESSAGES.noFile);
  let allowance = FORM_ROOM;
  let overflow = false;
  const body = guarded(
    raw,
    () => allowance,
    () => (overflow = true),
  );
  let fields = 0;
  let stored: UploadResult<T> | undefined;
  try {
    await unstable_parseMultipartFormData(
      new Request(request.url, { method: "POST", headers: request.headers, body, duplex: "half" } as RequestInit),
      async (part) => {
        if (part.filename === undefined) {
          if (++fields > MAX_FIELDS) throw new Stop({ status: 413, message: unreadable });
          let text = "";
          for await (const piece of part.data) {
            text += new TextDecoder().decode(piece);
            if (text.length > FIELD_BYTES) throw new Stop({ status: 413, message: unreadable });
          }
          if (part.name === "intent") intent = text;
          return undefined;
        }
        const kind = intent === null ? undefined : kindOf(intent);
        if (part.name !== "file" || intent === null || !kind) throw new Stop({ status: 400, message: unreadable });
        allowance += MEDIA_MAX_BYTES[kind] + FORM_ROOM;
        stored = await store(intent, part.data);
        throw new Stop();
      },
    );
  } catch (error) {
    if (overflow) return refused(413, intent ? MEDIA_MESSAGES.wrongType[kindOf(intent) ?? "video"] : unreadable);
    if (error instanceof Stop && error.refusal) return refused(error.refusal.status, error.refusal.message);
    if (!(error instanceof Stop)) {
      // The platform's parser found no form in the body, or the client went away.
      if (stored === undefined) return refused(400, unreadable);
    }
  }
  if (stored === undefined) return refused(400, MEDIA_MESSAGES.noFile);
  return { ok: true, intent: intent!, stored };
}

/** The status a refused upload answers. */
export function refusalStatus(reason: "empty" | "wrong-type" | "too-large" | "broken-off" | "unavailable"): number {
  return { "too-large": 413, "wrong-type": 422, unavailable: 503, empty: 400, "broken-off": 400 }[reason];
}

/** What readers get now, as a media page says it. */
export function fileNow(source: FileSource, words: { seed: string; none: string }): string {
  if (source.kind === "seed") return words.seed;
  if (source.kind === "none") return words.none;
  const { file } = source;
  const length = file.durationSeconds === null ? "" : `, ${durationText(file.durationSeconds)} long`;
  return `Uploaded: ${file.extension.toUpperCase()}, ${fileSize(file.bytes)}${length}, by ${file.uploadedBy} at ${deskTime(file.uploadedAt)}.`;
}
