// Captions as WebVTT (https://www.w3.org/TR/webvtt1/), checked before they are kept (ADR 083):
// UTF-8 text that starts with "WEBVTT", whose every cue has a timing line the player can read,
// ending after it starts. A file that is not one (an HTML page named .vtt) is refused with the
// line that is wrong.

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

export type CaptionsCheck = { ok: true; cues: Cue[] } | { ok: false; message: string };

const TIMESTAMP = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const TIMING = new RegExp(String.raw`^${TIMESTAMP}[ \t]+-->[ \t]+${TIMESTAMP}(?:[ \t].*)?$`);

const seconds = (h: string | undefined, m: string, s: string, ms: string) =>
  Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;

export const CAPTIONS_NOT_WEBVTT = "Upload captions as a WebVTT file: its first line must be WEBVTT.";

/** Reads captions, or says what is wrong with them. */
export function checkWebVtt(bytes: Uint8Array): CaptionsCheck {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, message: "The captions are not UTF-8 text: save them as UTF-8 WebVTT." };
  }
  if (text.includes("\0")) return { ok: false, message: CAPTIONS_NOT_WEBVTT };
  const lines = text.split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]!)) return { ok: false, message: CAPTIONS_NOT_WEBVTT };
  const cues: Cue[] = [];
  // Blocks are separated by blank lines; the header's block is the first.
  let at = 1;
  while (at < lines.length && lines[at] !== "") at++;
  while (at < lines.length) {
    while (at < lines.length && lines[at] === "") at++;
    if (at >= lines.length) break;
    const block: { line: number; text: string }[] = [];
    while (at < lines.length && lines[at] !== "") block.push({ line: ++at, text: lines[at - 1]! });
    const first = block[0]!.text;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first)) continue;
    // An identifier may come before the timing line.
    const timing = first.includes("-->") ? block[0]! : block[1];
    if (!timing) return { ok: false, message: `Line ${block[0]!.line}: a cue needs a timing line such as 00:00:01.000 --> 00:00:04.000.` };
    const match = TIMING.exec(timing.text);
    if (!match) return { ok: false, message: `Line ${timing.line}: a cue's timing must read like 00:00:01.000 --> 00:00:04.000.` };
    const [, h1, m1, s1, ms1, h2, m2, s2, ms2] = match;
    const start = seconds(h1, m1!, s1!, ms1!);
    const end = seconds(h2, m2!, s2!, ms2!);
    if (end <= start) return { ok: false, message: `Line ${timing.line}: a cue must end after it starts.` };
    const after = block.slice(block.indexOf(timing) + 1);
    if (after.some((l) => l.text.includes("-->")))
      return { ok: false, message: `Line ${after.find((l) => l.text.includes("-->"))!.line}: a cue's text cannot hold "-->".` };
    cues.push({ start, end, text: after.map((l) => l.text).join("\n") });
  }
  if (cues.length === 0) return { ok: false, message: "The captions have no cues: add at least one, with its timing line." };
  return { ok: true, cues };
}
