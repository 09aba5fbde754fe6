import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

// The browser build (npm test builds before Vitest runs) and its route manifest: what each page
// loads before it hydrates.

export const ASSETS = path.resolve("build/client/assets");

type RouteEntry = { id: string; parentId?: string; module: string; imports?: string[] };
export type RouteManifest = { url?: string; entry: { module: string; imports: string[] }; routes: Record<string, RouteEntry> };

export function routeManifest(): RouteManifest & { file: string } {
  if (!fs.existsSync(ASSETS)) throw new Error("no browser build: run `npm run build` first");
  const file = fs.readdirSync(ASSETS).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("the build has no route manifest");
  const sandbox: { window: { __remixManifest?: RouteManifest } } = { window: {} };
  vm.runInNewContext(fs.readFileSync(path.join(ASSETS, file), "utf8"), sandbox);
  return { ...sandbox.window.__remixManifest!, file };
}

/** The files a page whose deepest route is `id` loads up front: the entry's, then each route's up to the root. */
export function upFrontFiles(manifest: RouteManifest, id: string): string[] {
  const routeFiles = (routeId: string): string[] => {
    const route = manifest.routes[routeId]!;
    return [route.module, ...(route.imports ?? []), ...(route.parentId ? routeFiles(route.parentId) : [])];
  };
  return [...new Set([manifest.entry.module, ...manifest.entry.imports, ...routeFiles(id)])];
}

export const assetText = (asset: string) => fs.readFileSync(path.join(ASSETS, path.basename(asset)), "utf8");
