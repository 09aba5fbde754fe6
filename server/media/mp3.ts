// An MP3 judged by its bytes (ADR 083): an optional ID3v2 tag, then MPEG audio Layer III
// frames, two in a row where the first says the second starts. Its length in seconds comes from
// the first frame's Xing, Info or VBRI header when it has one (a count of frames), else from the
// bit rate of a constant-rate file and its size.

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export interface Mp3Frame {
  /** Bits per second. */
  bitrate: number;
  sampleRate: number;
  samplesPerFrame: number;
  /** The frame's length in bytes, header included. */
  length: number;
  mpeg1: boolean;
  mono: boolean;
}

/** The Layer III frame whose header starts at `at`, or undefined when none does. */
export function mp3Frame(bytes: Uint8Array, at: number): Mp3Frame | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (bytes[at + 1]! >> 3) & 3;
  const layer = (bytes[at + 1]! >> 1) & 3;
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const mpeg1 = version === 3;
  const bitrate = (mpeg1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]! * 1000;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const padding = (bytes[at + 2]! >> 1) & 1;
  const length = Math.floor(((mpeg1 ? 144 : 72) * bitrate) / sampleRate) + padding;
  return { bitrate, sampleRate, samplesPerFrame: mpeg1 ? 1152 : 576, length, mpeg1, mono: bytes[at + 3]! >> 6 === 3 };
}

/** The length of an ID3v2 tag at the start (header, frames, padding and footer); 0 without one. */
export function id3Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  const footer = bytes[5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** How far past the tag the first frame may start (some encoders leave junk or padding there). */
const FRAME_SEARCH = 4096;

/** Where the audio starts: a frame whose successor starts where it says, within the head given; -1 when there is none. */
export function firstMp3Frame(head: Uint8Array): number {
  const start = id3Length(head);
  for (let at = start; at < Math.min(head.length, start + FRAME_SEARCH); at++) {
    const frame = mp3Frame(head, at);
    if (!frame) continue;
    const next = at + frame.length;
    // A file of one frame has no successor: its end must be the end of what was read.
    if (mp3Frame(head, next) || next === head.length) return at;
  }
  return -1;
}

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
const uint32 = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

/**
 * The audio's length in whole seconds, from the first frame at `at` of a file of `total` bytes:
 * a Xing or Info header's frame count, a VBRI header's, or else the size at the first frame's
 * bit rate.
 */
export function mp3Duration(head: Uint8Array, at: number, total: number): number {
  const frame = mp3Frame(head, at)!;
  const sideInfo = frame.mpeg1 ? (frame.mono ? 17 : 32) : frame.mono ? 9 : 17;
  const xing = at + 4 + sideInfo;
  let frames: number | undefined;
  if ((ascii(head, xing, "Xing") || ascii(head, xing, "Info")) && xing + 12 <= head.length && head[xing + 7]! & 1)
    frames = uint32(head, xing + 8);
  else if (ascii(head, at + 36, "VBRI") && at + 36 + 18 <= head.length) frames = uint32(head, at + 36 + 14);
  const seconds = frames !== undefined ? (frames * frame.samplesPerFrame) / frame.sampleRate : ((total - at) * 8) / frame.bitrate;
  return Math.round(seconds);
}
