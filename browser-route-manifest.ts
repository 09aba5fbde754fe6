import fs from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "vite";

/** The route manifest every page loads: `window.__remixManifest={…};` in assets/manifest-*.js. */
type BrowserManifest = { entry: { imports: string[] }; routes: Record<string, { id: string; parentId?: string }> };

const PREFIX = "window.__remixManifest=";

/**
 * The browser's router needs the pages, and the few resource routes a fetcher or a `<Form>` of
 * the router reaches. The rest (the service and Admin APIs, feeds, files, health checks) are
 * only ever reached by plain links, other programs or a document request, which the server
 * matches on its own route list. Left out of the manifest the browser loads, they cost no page
 * a byte (ADR 075). A route is a resource route when its module has no default export.
 */
export function browserRouteManifest(options: { appDirectory: string; clientFolder: string; reachedByTheRouter: string[] }): Plugin {
  let ssr = false;
  return {
    name: "meridian:browser-route-manifest",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    // Remix writes the manifest while the server is built, after the client build.
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        if (!ssr) return;
        const assets = path.join(options.clientFolder, "assets");
        const files = (await fs.readdir(assets)).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
        if (files.length !== 1) throw new Error(`expected one route manifest in ${assets}, found ${files.length}`);
        const file = path.join(assets, files[0]!);
        const text = await fs.readFile(file, "utf8");
        if (!text.startsWith(PREFIX) || !text.endsWith(";")) throw new Error(`${file} is not a Remix route manifest`);
        const manifest = JSON.parse(text.slice(PREFIX.length, -1)) as BrowserManifest;
        const kept = await browserRoutes(manifest.routes, options);
        await fs.writeFile(file, `${PREFIX}${compacted({ ...manifest, routes: kept })};`);
      },
    },
  };
}

/**
 * The manifest written without what every page would load for nothing (ADR 091): each route's id
 * (its key), a parent that is the root, the flags that are false or lists that are empty (Remix
 * reads each of them as absent-is-false), and the files the entry imports, which every route
 * imports too (the shell and the framework); files by their names alone. A few bytes of script put them back before Remix
 * reads the manifest, so the browser's router sees the routes it always did.
 */
export function compacted(manifest: BrowserManifest): string {
  const everywhere = new Set(manifest.entry.imports);
  const routes: Record<string, Record<string, unknown>> = {};
  for (const [id, route] of Object.entries(manifest.routes)) {
    const kept: Record<string, unknown> = {};
    for (const [key, given] of Object.entries(route as Record<string, unknown>)) {
      const value =
        key === "imports"
          ? (given as string[]).filter((file) => !everywhere.has(file)).map(hashOf)
          : key === "module"
            ? hashOf(given as string)
            : given;
      if (key === "id" || (key === "parentId" && value === "root")) continue;
      if (value === false || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      kept[key] = value;
    }
    routes[id] = kept;
  }
  const restore =
    'm=>{const f=h=>"/assets/"+h+".js";for(const k in m.routes){const r=m.routes[k];r.id=k;if(k!=="root"&&!r.parentId)r.parentId="root";r.module=f(r.module);r.imports=m.entry.imports.concat((r.imports||[]).map(f))}return m}';
  return `(${restore})(${JSON.stringify({ ...manifest, routes })})`;
}

/** A route's file by its name alone, "/assets/" and ".js" put back in the browser: 191 of the manifest's 5,264 compressed bytes. */
function hashOf(file: string): string {
  const name = /^\/assets\/([^/]+)\.js$/.exec(file)?.[1];
  if (!name) throw new Error(`a route file outside /assets/: ${file}`);
  return name;
}

async function browserRoutes<T extends { id: string }>(
  routes: Record<string, T>,
  options: { appDirectory: string; reachedByTheRouter: string[] },
): Promise<Record<string, T>> {
  const unknown = options.reachedByTheRouter.filter((id) => !routes[id]);
  if (unknown.length > 0) throw new Error(`not routes of this app: ${unknown.join(", ")}`);
  const kept: Record<string, T> = {};
  for (const [id, route] of Object.entries(routes)) {
    if (options.reachedByTheRouter.includes(id) || (await rendersAPage(options.appDirectory, id))) kept[id] = route;
  }
  return kept;
}

/** A route id is its module's path under the app folder, without the extension. */
async function rendersAPage(appDirectory: string, id: string): Promise<boolean> {
  for (const extension of [".tsx", ".ts", ".jsx", ".js"]) {
    const source = await fs.readFile(path.join(appDirectory, id + extension), "utf8").catch(() => null);
    if (source !== null) return /^export default\b/m.test(source);
  }
  throw new Error(`no module for the route ${id}`);
}
