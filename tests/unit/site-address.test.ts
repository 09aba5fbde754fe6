import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config";
import { commandSiteUrl, recordSiteUrl } from "~/server/site-address";

const folders: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-address-"));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the address a command beside the site links to", () => {
  it("is where the server last started, when the command is given neither SITE_URL nor PORT", () => {
    const DATA_DIR = dataDir();
    recordSiteUrl(parseConfig({ DATA_DIR, PORT: "4321" }));
    expect(commandSiteUrl(parseConfig({ DATA_DIR }))).toBe("http://localhost:4321");
  });

  it("is SITE_URL or PORT when the command is given one, whatever the server recorded", () => {
    const DATA_DIR = dataDir();
    recordSiteUrl(parseConfig({ DATA_DIR, PORT: "4321" }));
    expect(commandSiteUrl(parseConfig({ DATA_DIR, SITE_URL: "https://news.example.com/" }))).toBe("https://news.example.com");
    expect(commandSiteUrl(parseConfig({ DATA_DIR, PORT: "8080" }))).toBe("http://localhost:8080");
  });

  it("is the default's when no server has started here, or what it recorded is not an address", () => {
    const DATA_DIR = dataDir();
    expect(commandSiteUrl(parseConfig({ DATA_DIR }))).toBe("http://localhost:3000");
    fs.writeFileSync(path.join(DATA_DIR, "site-url"), "javascript:alert(1)\n");
    expect(commandSiteUrl(parseConfig({ DATA_DIR }))).toBe("http://localhost:3000");
  });
});
