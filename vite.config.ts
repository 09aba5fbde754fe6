import { vitePlugin as remix } from "@remix-run/dev";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { browserRouteManifest } from "./browser-route-manifest";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { clientImportGuard } from "./client-import-guard";
import { precompressAssets } from "./precompress-assets";
import { rootChunk } from "./root-chunk";
import remixConfig from "./remix.config";
import { siteStylesheet } from "./site-stylesheet";
import { withoutRouteDiscovery } from "./without-route-discovery";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    vanillaExtractPlugin(),
    siteStylesheet(remixConfig.buildDirectory ?? "build"),
    !process.env.VITEST && clientImportGuard(),
    !process.env.VITEST && remix(remixConfig),
    !process.env.VITEST && withoutRouteDiscovery(remixConfig.future?.v3_lazyRouteDiscovery),
    !process.env.VITEST && rootChunk(remixConfig.appDirectory ?? "app"),
    !process.env.VITEST &&
      browserRouteManifest({
        appDirectory: remixConfig.appDirectory ?? "app",
        clientFolder: `${remixConfig.buildDirectory}/client`,
        // The resource routes a fetcher or the router's <Form> reaches; the browser tests use each.
        reachedByTheRouter: [
          "routes/api.article-gift.give-gift",
          "routes/dismiss",
          "routes/magazine_.find",
          "routes/preferences.text-size",
          "routes/service.commerce.state-province.$country",
        ],
      }),
    !process.env.VITEST && precompressAssets(`${remixConfig.buildDirectory}/client`),
  ],
  // One import alias, the same as tsconfig.json's paths: "~/server/…" is server/… from anywhere.
  resolve: { alias: [{ find: /^~\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
  server: { port: 3000 },
  build: {
    target: "es2022",
    // One stylesheet for every page (site-stylesheet.ts): 6 KB compressed, one request.
    cssCodeSplit: false,
    // The browser's code: terser's output is 4 % smaller than esbuild's (ADR 049). The server's is
    // left readable, for its stack traces.
    minify: isSsrBuild ? false : "terser",
    terserOptions: { ecma: 2020, module: true, compress: { passes: 2 } },
    // The files the route manifest names (routes and the chunks they import) are named by their
    // hash alone: every page loads the manifest, and those names cost 0.56 KB of its 6.7 KB
    // compressed (ADR 049). What loads on demand, and the entry, keep their names.
    rollupOptions: isSsrBuild
      ? undefined
      : {
          output: {
            entryFileNames: (chunk) => (chunk.name === "entry.client" ? "assets/[name]-[hash].js" : "assets/[hash].js"),
            chunkFileNames: (chunk) => (chunk.isDynamicEntry ? "assets/[name]-[hash].js" : "assets/[hash].js"),
          },
        },
  },
  ssr: { external: ["better-sqlite3", "pg", "sharp"] },
  test: {
    // `npm run test:faults` (FAULTS=1) runs the slow fault scripts in tests/faults instead.
    include: process.env.FAULTS ? ["tests/faults/**/*.fault.ts"] : ["tests/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/global-setup.ts"],
    environment: "node",
    pool: "forks",
    // Test files mostly wait on the servers and databases they start, so four at a time keep two
    // cores busy (the default, one fewer than the cores, left them idle most of the run). Each
    // file has a database of its own, so they cannot disturb each other. Three had the database
    // and integration run at 345 s with the desk's tests; four once let a request through the
    // balancer test's drain answer 502, which HAProxy now retries (deploy/haproxy.cfg).
    //
    // A fork runs file after file without loading the modules again (isolate: false): loading
    // them took a third of the suite's CPU. Files share no state through modules: each opens its
    // own database and reads its settings when it starts. Tinypool's idle timer could destroy an
    // idle fork twice and fail the run ("Terminating worker thread"): patched (ADR 031, patches/).
    // The fault scripts, which kill and restart processes, keep a fork each.
    poolOptions: { forks: { minForks: 1, maxForks: 4, isolate: Boolean(process.env.FAULTS) } },
    // Guards against a hung test, not budgets: no test depends on how fast the machine is, and
    // one CI runs on is loaded.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default", ["json", { outputFile: `${process.env.TEST_RESULTS_DIR ?? "test-results"}/vitest.json` }]],
  },
}));
