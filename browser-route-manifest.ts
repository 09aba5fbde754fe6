import fs from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "vite";

/** The route manifest every page loads: `window.__remixManifest={…};` in assets/manifest-*.js. */
type BrowserManifest = { routes: Record<string, { id: string }> };

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
        await fs.writeFile(file, `${PREFIX}${JSON.stringify({ ...manifest, routes: kept })};`);
      },
    },
  };
}

async function browserRoutes<T extends { id: string }>(
  routes: Record<string, T>,
  options: { appDirectory: string; reachedByTheRouter: string[] },
): Promise<Record<string, T>> {
  const unknown = options.reachedByTheRouter.filter((id) => !routes[id]);
  if (unknown.length > 0) throw new Error(`not routes of this app: ${unknown.join(", ")}`);
  const kept: Record<string, T> = {};
  for (const [id, route] of Object.entries(routes)) {
    if (options.reachedByTheRouter.includes(id) || (await rendersAPage(options.appDirectory, id))) kept[id] = withoutDefaults(route);
  }
  return kept;
}

/**
 * A route's entry without its `false` flags and empty lists (`hasClientLoader: false`, `css: []`
 * …): Remix's browser code reads each of them as "if present and true" or "if any", so leaving
 * them out changes nothing, and takes about 1 byte per route off every page (ADR 089).
 */
function withoutDefaults<T extends { id: string }>(route: T): T {
  const entries: [string, unknown][] = Object.entries(route);
  return Object.fromEntries(entries.filter(([, value]) => value !== false && !(Array.isArray(value) && value.length === 0))) as T;
}

/** A route id is its module's path under the app folder, without the extension. */
async function rendersAPage(appDirectory: string, id: string): Promise<boolean> {
  for (const extension of [".tsx", ".ts", ".jsx", ".js"]) {
    const source = await fs.readFile(path.join(appDirectory, id + extension), "utf8").catch(() => null);
    if (source !== null) return /^export default\b/m.test(source);
  }
  throw new Error(`no module for the route ${id}`);
}
