#!/usr/bin/env node
// Makes the seed videos: for each video in ../media.json, a narrated title slide (WebM, VP9 + Opus)
// and its captions (WebVTT), and writes each file's real duration back into media.json.
// A tool for whoever edits the seed videos, not for the site or CI: it needs ffmpeg and espeak-ng
// (Debian: apt-get install ffmpeg espeak-ng fonts-dejavu-core). The files it makes are committed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const mediaFile = path.join(here, "..", "media.json");
let source = fs.readFileSync(mediaFile, "utf8");
const media = JSON.parse(source);
const only = process.argv.slice(2);
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf";
const SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const PALETTE = ["#1f3a5f", "#7a2e2e", "#2f5233", "#4b3869", "#8a4b08", "#22495c", "#5c2a4d", "#3d4a1f"];

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
const seconds = (file) => Number(run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).trim());
const hash = (s) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

function wrap(text, width) {
  const lines = [""];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (lines[last] && (lines[last] + " " + word).length > width) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines.join("\n");
}

const stamp = (t) => {
  const ms = Math.round(t * 1000);
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

for (const video of media.videos) {
  if (only.length && !only.includes(video.slug)) continue;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "video-"));
  // One sound file per sentence, so each caption starts and ends with its own sentence.
  const sentences = video.description.match(/[^.!?]+[.!?]+(?:["”’)]*)/g).map((s) => s.trim());
  const cues = [];
  let at = 0.8;
  const parts = [];
  for (const [i, sentence] of sentences.entries()) {
    const wav = path.join(work, `s${i}.wav`);
    run("espeak-ng", ["-v", "en-us", "-s", "160", "-w", wav, sentence]);
    const length = seconds(wav);
    cues.push(`${i + 1}\n${stamp(at)} --> ${stamp(at + length)}\n${wrap(sentence, 60)}\n`);
    parts.push(`file '${wav}'`, "file 'gap.wav'");
    at += length + 0.35;
  }
  run("ffmpeg", ["-y", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "0.35", path.join(work, "gap.wav")]);
  run("ffmpeg", ["-y", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "0.8", path.join(work, "lead.wav")]);
  fs.writeFileSync(path.join(work, "list.txt"), ["file 'lead.wav'", ...parts].join("\n"));
  const narration = path.join(work, "narration.wav");
  run("ffmpeg", ["-y", "-f", "concat", "-safe", "0", "-i", path.join(work, "list.txt"), "-c", "copy", narration]);

  fs.writeFileSync(path.join(work, "title.txt"), wrap(video.title, 26));
  fs.writeFileSync(path.join(work, "topic.txt"), `${video.topic.toUpperCase()}`);
  const colour = PALETTE[hash(video.slug) % PALETTE.length];
  const draw = [
    `drawtext=fontfile=${SANS}:text='MERIDIAN REVIEW  VIDEO':fontcolor=white@0.85:fontsize=16:x=40:y=36`,
    `drawtext=fontfile=${FONT}:textfile=${path.join(work, "title.txt")}:fontcolor=white:fontsize=34:line_spacing=10:x=40:y=(h-text_h)/2`,
    `drawtext=fontfile=${SANS}:textfile=${path.join(work, "topic.txt")}:fontcolor=white@0.85:fontsize=16:x=40:y=h-56`,
    `drawbox=x=40:y=64:w=48:h=4:color=white@0.9:t=fill`,
  ].join(",");
  const out = path.join(here, `${video.slug}.webm`);
  run("ffmpeg", [
    "-y", "-f", "lavfi", "-i", `color=c=${colour}:s=640x360:r=1`, "-i", narration,
    "-vf", draw, "-t", (seconds(narration) + 0.5).toFixed(2),
    "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "40", "-g", "10", "-pix_fmt", "yuv420p",
    "-c:a", "libopus", "-b:a", "20k", "-ac", "1",
    out,
  ]);
  fs.writeFileSync(path.join(here, `${video.slug}.vtt`), `WEBVTT\n\n${cues.join("\n")}`);
  const duration = Math.round(seconds(out));
  const entry = source.indexOf(`"slug": "${video.slug}"`);
  const field = /"durationSeconds": \d+/g;
  field.lastIndex = entry;
  const found = field.exec(source);
  source = `${source.slice(0, found.index)}"durationSeconds": ${duration}${source.slice(field.lastIndex)}`;
  fs.rmSync(work, { recursive: true });
  console.log(`${video.slug}: ${duration} s, ${(fs.statSync(out).size / 1024).toFixed(0)} KB`);
}
fs.writeFileSync(mediaFile, source);
