import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstMp3Frame, mp3Duration, mp3Frame } from "~/server/media/mp3";
import { judgeVideo } from "~/server/media/video-formats";
import { CAPTIONS_NOT_WEBVTT, checkWebVtt } from "~/server/media/webvtt";

// Media files are judged by their bytes (ADR 083): the seed's own WebM, MP3 and WebVTT files
// pass, with the lengths media.json gives them, and files of other kinds, or named as these, fail.

const media = JSON.parse(fs.readFileSync("content/media.json", "utf8")) as {
  videos: { slug: string; durationSeconds: number }[];
  podcasts: { slug: string; episodes: { season: number; episode: number; durationSeconds: number }[] }[];
};
const bytes = (file: string) => new Uint8Array(fs.readFileSync(path.join("content", file)));
const text = (value: string) => new TextEncoder().encode(value);

/** An MP4's first box: `ftyp` with this major brand. */
function ftyp(brand: string): Uint8Array {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write("ftyp", 4, "latin1");
  box.write(brand, 8, "latin1");
  box.write("isomiso2", 16, "latin1");
  return new Uint8Array(Buffer.concat([box, Buffer.from([0, 0, 0, 8]), Buffer.from("free")]));
}

describe("videos by their bytes", () => {
  it("knows every seed WebM, and reads its length from its Segment Info", () => {
    for (const video of media.videos) {
      const head = bytes(`video/${video.slug}.webm`).subarray(0, 64 * 1024);
      expect(judgeVideo(head), video.slug).toEqual({ format: "webm", durationSeconds: video.durationSeconds });
    }
  });

  it("knows an MP4 by its ftyp box and brand, without a length", () => {
    expect(judgeVideo(ftyp("isom"))).toEqual({ format: "mp4", durationSeconds: null });
    expect(judgeVideo(ftyp("mp42"))).toEqual({ format: "mp4", durationSeconds: null });
  });

  it("refuses a QuickTime file, a HEIC image, Matroska that is not WebM, an MP3, HTML and nothing", () => {
    expect(judgeVideo(ftyp("qt  "))).toBeUndefined();
    expect(judgeVideo(ftyp("heic"))).toBeUndefined();
    const webm = bytes("video/ai-pilots-that-actually-ship.webm").subarray(0, 4096);
    const matroska = Buffer.from(webm);
    matroska.write("matr", matroska.indexOf("webm"), "latin1");
    expect(judgeVideo(new Uint8Array(matroska))).toBeUndefined();
    expect(judgeVideo(bytes("podcast/the-long-way-back-s1e1.mp3"))).toBeUndefined();
    expect(judgeVideo(text("<!doctype html><video src=x onerror=alert(1)>"))).toBeUndefined();
    expect(judgeVideo(new Uint8Array(0))).toBeUndefined();
  });
});

describe("MP3s by their bytes", () => {
  it("finds the first frame past the ID3 tag of every seed episode, and its length as media.json has it", () => {
    for (const series of media.podcasts)
      for (const e of series.episodes) {
        const file = bytes(`podcast/${series.slug}-s${e.season}e${e.episode}.mp3`);
        const at = firstMp3Frame(file.subarray(0, 64 * 1024));
        expect(at, `${series.slug} s${e.season}e${e.episode}`).toBeGreaterThan(10);
        expect(mp3Duration(file.subarray(0, 64 * 1024), at, file.length)).toBe(e.durationSeconds);
      }
  });

  it("reads a file without a tag or Info header by its bit rate and size", () => {
    const file = bytes("podcast/the-long-way-back-s1e1.mp3");
    const at = firstMp3Frame(file);
    // From the frame after the Info frame on, plain audio.
    const audio = file.subarray(at + mp3Frame(file, at)!.length);
    expect(firstMp3Frame(audio)).toBe(0);
    const { bitrate } = mp3Frame(audio, 0)!;
    expect(mp3Duration(audio, 0, (bitrate / 8) * 10)).toBe(10);
  });

  it("refuses an ID3 tag followed by HTML, a lone sync word, a WebM and text", () => {
    const tag = bytes("podcast/the-long-way-back-s1e1.mp3").subarray(0, 10);
    const tagLength = 10 + ((tag[6]! << 21) | (tag[7]! << 14) | (tag[8]! << 7) | tag[9]!);
    const fake = new Uint8Array(tagLength + 200);
    fake.set(bytes("podcast/the-long-way-back-s1e1.mp3").subarray(0, tagLength));
    fake.set(text("<html><script>alert(1)</script></html>"), tagLength);
    expect(firstMp3Frame(fake)).toBe(-1);
    expect(firstMp3Frame(new Uint8Array([0xff, 0xfb, 0x90, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]))).toBe(-1);
    expect(firstMp3Frame(bytes("video/ai-pilots-that-actually-ship.webm").subarray(0, 65536))).toBe(-1);
    expect(firstMp3Frame(text("ID3 is not enough"))).toBe(-1);
  });
});

describe("captions as WebVTT", () => {
  it("reads the seed captions' cues", () => {
    const checked = checkWebVtt(bytes("video/ai-pilots-that-actually-ship.vtt"));
    expect(checked.ok && checked.cues.length).toBe(3);
    expect(checked.ok && checked.cues[0]).toEqual({
      start: 0.8,
      end: 5.588,
      text: "Plenty of companies run AI experiments; few move them into\ndaily work.",
    });
  });

  it("takes a BOM, CRLF lines, short timestamps, settings, identifiers and NOTE blocks", () => {
    const checked = checkWebVtt(
      text("\uFEFFWEBVTT - Meridian\r\n\r\nNOTE made by hand\r\n\r\nintro\r\n00:01.000 --> 00:04.500 align:start line:0\r\nHello\r\n"),
    );
    expect(checked).toEqual({ ok: true, cues: [{ start: 1, end: 4.5, text: "Hello" }] });
  });

  it.each([
    ["an HTML page", "<!doctype html><script>alert(1)</script>", CAPTIONS_NOT_WEBVTT],
    ["SubRip", "1\n00:00:01,000 --> 00:00:02,000\nHi\n", CAPTIONS_NOT_WEBVTT],
    ["WEBVTT run into other words", "WEBVTTX\n\n00:01.000 --> 00:02.000\nHi\n", CAPTIONS_NOT_WEBVTT],
    [
      "a comma in a timing",
      "WEBVTT\n\n00:00:01,000 --> 00:00:02.000\nHi\n",
      "Line 3: a cue's timing must read like 00:00:01.000 --> 00:00:04.000.",
    ],
    ["a cue ending before it starts", "WEBVTT\n\n00:00:05.000 --> 00:00:02.000\nHi\n", "Line 3: a cue must end after it starts."],
    ["a cue without a timing", "WEBVTT\n\njust words\n", "Line 3: a cue needs a timing line such as 00:00:01.000 --> 00:00:04.000."],
    ["no cues", "WEBVTT\n\nNOTE nothing here\n", "The captions have no cues: add at least one, with its timing line."],
    ["a NUL byte", "WEBVTT\n\n00:01.000 --> 00:02.000\nH\0i\n", CAPTIONS_NOT_WEBVTT],
  ])("refuses %s", (_, captions, message) => {
    expect(checkWebVtt(text(captions))).toEqual({ ok: false, message });
  });

  it("refuses bytes that are not UTF-8", () => {
    expect(checkWebVtt(new Uint8Array([...text("WEBVTT\n\n00:01.000 --> 00:02.000\n"), 0xff, 0xfe]))).toEqual({
      ok: false,
      message: "The captions are not UTF-8 text: save them as UTF-8 WebVTT.",
    });
  });
});
