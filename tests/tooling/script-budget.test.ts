import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { assetText, routeManifest, upFrontFiles } from "~/tests/helpers/browser-build";

// Issue 15's budget: at most 110 KB of compressed JS before a page hydrates, counted as
// `npm run bench` counts it (each file compressed on its own with gzip, 1 KB = 1,024 bytes).
const BUDGET = 110 * 1024;
// Remix's inline scripts (the context and the module script that starts the entry) are not
// files: `npm run bench` measures them at 0.8 KB a page.
const INLINE_SCRIPTS = 1024;

const gzipped = (asset: string) => zlib.gzipSync(assetText(asset)).length;

describe("the browser build", () => {
  it("keeps every page's scripts, route manifest included, within 110 KB compressed", () => {
    const manifest = routeManifest();
    const manifestBytes = gzipped(manifest.file);
    const over: string[] = [];
    let heaviest = { id: "", bytes: 0 };
    for (const id of Object.keys(manifest.routes)) {
      const bytes = manifestBytes + INLINE_SCRIPTS + upFrontFiles(manifest, id).reduce((sum, file) => sum + gzipped(file), 0);
      if (bytes > heaviest.bytes) heaviest = { id, bytes };
      if (bytes > BUDGET) over.push(`${id}: ${(bytes / 1024).toFixed(1)} KB`);
    }
    expect(over).toEqual([]);
    // The forms' pages are the heaviest: the sum above covers them, not just pages without scripts of their own.
    expect(heaviest.bytes).toBeGreaterThan(100 * 1024);
  });

  it("names every page in the route manifest, and of the resource routes only those the browser's router reaches", () => {
    const routes = Object.keys(routeManifest().routes);
    // Pages, the desk's included.
    expect(routes).toEqual(
      expect.arrayContaining(["root", "routes/_index", "routes/$year.$month.$slug", "routes/desk._index", "routes/desk.audit"]),
    );
    // The checkout's state list and the text-size toggle reach these through fetchers.
    expect(routes).toEqual(expect.arrayContaining(["routes/service.commerce.state-province.$country", "routes/preferences.text-size"]));
    // The APIs, feeds and files: no page's router goes there.
    for (const id of [
      "routes/desk.api.articles",
      "routes/service.user.quota",
      "routes/feeds.latest[.xml]",
      "routes/sitemap[.xml]",
      "routes/healthz",
    ]) {
      expect(routes).not.toContain(id);
    }
  });
});
