#!/usr/bin/env node
// Makes the seed podcast audio: for each episode in ../media.json, a narrated MP3 (mono, 22.05 kHz,
// 32 kbit/s, ID3 tagged) named {series}-s{season}e{episode}.mp3, and writes each file's real
// duration back into media.json.
// A tool for whoever edits the seed episodes, not for the site or CI: it needs ffmpeg and espeak-ng
// (Debian: apt-get install ffmpeg espeak-ng). The files it makes are committed.
// Usage: node content/podcast/generate.mjs [series-slug ...]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const mediaFile = path.join(here, "..", "media.json");
let source = fs.readFileSync(mediaFile, "utf8");
const media = JSON.parse(source);
const only = process.argv.slice(2);
// One voice per series, by position in media.json, so the shows sound different.
const VOICES = ["en-us+m3", "en-gb+f3", "en-gb-scotland+m1", "en-us+f4"];

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
const seconds = (file) => Number(run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).trim());

// Check every series first, so a clash stops the run before any file is overwritten.
for (const series of media.podcasts) {
  const seen = new Map();
  for (const episode of series.episodes) {
    const key = `s${episode.season}e${episode.episode}`;
    if (!Number.isInteger(episode.season) || !Number.isInteger(episode.episode)) {
      throw new Error(`${series.slug}: "${episode.title}" needs whole-number season and episode`);
    }
    if (seen.has(key)) {
      throw new Error(`${series.slug}: "${seen.get(key)}" and "${episode.title}" are both ${key}`);
    }
    seen.set(key, episode.title);
  }
}

const podcasts = source.indexOf('"podcasts"');
for (const [index, series] of media.podcasts.entries()) {
  if (only.length && !only.includes(series.slug)) continue;
  const voice = VOICES[index % VOICES.length];
  // Durations are found in order from the series' own entry, so equal titles elsewhere cannot match.
  let cursor = source.indexOf(`"slug": ${JSON.stringify(series.slug)}`, podcasts);
  for (const episode of series.episodes) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "podcast-"));
    const wav = path.join(work, "narration.wav");
    const script = `${series.title}. Season ${episode.season}, episode ${episode.episode}: ${episode.title}. ${episode.description}`;
    run("espeak-ng", ["-v", voice, "-s", "160", "-w", wav, script]);
    const out = path.join(here, `${series.slug}-s${episode.season}e${episode.episode}.mp3`);
    run("ffmpeg", [
      "-y", "-i", wav,
      "-c:a", "libmp3lame", "-b:a", "32k", "-ac", "1", "-ar", "22050",
      "-id3v2_version", "3",
      "-metadata", `title=${episode.title}`,
      "-metadata", `artist=${series.hosts.join(" and ")}`,
      "-metadata", `album=${series.title}`,
      "-metadata", `track=${episode.episode}`,
      out,
    ]);
    const duration = Math.round(seconds(out));
    cursor = source.indexOf(`"title": ${JSON.stringify(episode.title)}`, cursor);
    if (cursor < 0) throw new Error(`${series.slug}: cannot find "${episode.title}" in media.json`);
    const field = /"durationSeconds": \d+/g;
    field.lastIndex = cursor;
    const found = field.exec(source);
    source = `${source.slice(0, found.index)}"durationSeconds": ${duration}${source.slice(field.lastIndex)}`;
    cursor = found.index;
    fs.rmSync(work, { recursive: true });
    console.log(`${path.basename(out)}: ${duration} s, ${(fs.statSync(out).size / 1024).toFixed(0)} KB`);
  }
}
fs.writeFileSync(mediaFile, source);
