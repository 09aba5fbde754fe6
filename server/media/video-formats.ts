// A video judged by its first bytes (ADR 083): a WebM (an EBML header whose DocType is "webm")
// or an MP4 (an ISO base media file whose first box is `ftyp` with an MP4 brand). Neither the
// file's name nor the type the client sent is asked. A WebM's length is read from its Segment
// Info when that comes within the bytes read; an MP4 keeps its length in `moov`, often at the
// end of the file, so it is not read.

export type VideoFormat = "webm" | "mp4";

/** An EBML variable-length integer at `at`: its value (marker bit cleared) and its length in bytes. */
function vint(bytes: Uint8Array, at: number): { value: number; length: number } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return undefined;
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i]!;
  // All ones means "unknown size" (a live stream's Segment).
  return { value: value === 2 ** (7 * length) - 1 ? Infinity : value, length };
}

/** An element's id (marker bits kept, as the specification writes ids), where its data starts, and its size. */
function element(bytes: Uint8Array, at: number): { id: number; data: number; size: number } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const idLength = Math.clz32(first) - 23;
  if (idLength > 4 || at + idLength > bytes.length) return undefined;
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + bytes[at + i]!;
  const size = vint(bytes, at + idLength);
  return size && { id, data: at + idLength + size.length, size: size.value };
}

/** The child elements of the data from `start` to `end` (as far as the bytes read go). */
function* children(bytes: Uint8Array, start: number, end: number) {
  let at = start;
  while (at < Math.min(end, bytes.length)) {
    const child = element(bytes, at);
    if (!child) return;
    yield child;
    if (child.size === Infinity) return;
    at = child.data + child.size;
  }
}

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMESTAMP_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

const text = (bytes: Uint8Array, at: number, size: number) => new TextDecoder().decode(bytes.subarray(at, at + size)).replace(/\0+$/, "");

function unsigned(bytes: Uint8Array, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + bytes[at + i]!;
  return value;
}

function float(bytes: Uint8Array, at: number, size: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, size);
  return size === 4 ? view.getFloat32(0) : size === 8 ? view.getFloat64(0) : undefined;
}

function webmDuration(head: Uint8Array, segment: { data: number; size: number }): number | null {
  for (const child of children(head, segment.data, segment.data + segment.size)) {
    if (child.id !== INFO) continue;
    let scale = 1_000_000;
    let duration: number | undefined;
    for (const field of children(head, child.data, child.data + child.size)) {
      if (field.data + field.size > head.length) return null;
      if (field.id === TIMESTAMP_SCALE) scale = unsigned(head, field.data, field.size);
      if (field.id === DURATION) duration = float(head, field.data, field.size);
    }
    return duration !== undefined && Number.isFinite(duration) && duration >= 0 ? Math.round((duration * scale) / 1e9) : null;
  }
  return null;
}

function judgeWebm(head: Uint8Array): { format: VideoFormat; durationSeconds: number | null } | undefined {
  const header = element(head, 0);
  if (header?.id !== EBML || header.size === Infinity) return undefined;
  let docType: string | undefined;
  for (const field of children(head, header.data, header.data + header.size))
    if (field.id === DOC_TYPE && field.data + field.size <= head.length) docType = text(head, field.data, field.size);
  if (docType !== "webm") return undefined;
  const segment = element(head, header.data + header.size);
  if (segment?.id !== SEGMENT) return undefined;
  return { format: "webm", durationSeconds: webmDuration(head, segment) };
}

/** The brands of files browsers play as video/mp4 (ISO base media, MPEG-4, H.264, DASH). */
const MP4_BRANDS = new Set(["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash"]);

function judgeMp4(head: Uint8Array): { format: VideoFormat; durationSeconds: number | null } | undefined {
  if (head.length < 12 || text(head, 4, 4) !== "ftyp") return undefined;
  const size = unsigned(head, 0, 4);
  if (size < 16 || size > 4096) return undefined;
  return MP4_BRANDS.has(new TextDecoder().decode(head.subarray(8, 12))) ? { format: "mp4", durationSeconds: null } : undefined;
}

/** The video the first bytes announce, or undefined for anything else. */
export function judgeVideo(head: Uint8Array): { format: VideoFormat; durationSeconds: number | null } | undefined {
  return judgeWebm(head) ?? judgeMp4(head);
}
