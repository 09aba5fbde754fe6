import fs from "node:fs";
import path from "node:path";
import type { Config } from "~/server/config";

// A command run beside the site (npm run staff, content, newsletter:send) prints and mails links.
// Given neither SITE_URL nor PORT, it cannot know where the server answers: the server, when it
// starts, writes its own address into the data folder, and such a command links there.

const FILE = "site-url";

/** Called by the server as it starts: the address its links use, for the commands run beside it. */
export function recordSiteUrl(c: Config): void {
  fs.writeFileSync(path.join(c.dataDir, FILE), `${c.siteUrl}\n`);
}

/** The address a command's links use: SITE_URL or PORT if given, else where the server last started, else the default's. */
export function commandSiteUrl(c: Config): string {
  if (c.addressGiven) return c.siteUrl;
  let recorded: string;
  try {
    recorded = fs.readFileSync(path.join(c.dataDir, FILE), "utf8").trim();
  } catch {
    return c.siteUrl;
  }
  return URL.canParse(recorded) && /^https?:/.test(recorded) ? new URL(recorded).origin : c.siteUrl;
}
