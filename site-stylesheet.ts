import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

// One stylesheet for the whole site (ADR 035). With `cssCodeSplit: false` Vite writes every
// style into one file, which Remix's manifest does not know about: this plugin tells the server
// build its name, as the module `virtual:site-stylesheet` (null in development and in tests,
// where Vite serves the styles itself), and removes the server build's own copy of it.
const VIRTUAL = "virtual:site-stylesheet";
const RESOLVED = `\0${VIRTUAL}`;

export const siteStylesheet = (buildDirectory: string): Plugin => {
  let ssr = false;
  let building = false;
  /** The server build's own copy of the styles, which Remix moves into the client folder. */
  let serverCopies: string[] = [];
  const record = path.join(buildDirectory, "stylesheet.json");
  return {
    name: "meridian:site-stylesheet",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      building = config.command === "build" && !process.env.VITEST;
    },
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      // The client build runs first; the browser reads the name back from the page (app/lib/http/stylesheet.ts).
      if (!building || !ssr) return "export default null;";
      const { href } = JSON.parse(fs.readFileSync(record, "utf8")) as { href: string };
      return `export default ${JSON.stringify(href)};`;
    },
    // After Vite's own CSS plugin has put the one stylesheet in the bundle.
    generateBundle: {
      order: "post",
      handler(_, bundle) {
        if (!building) return;
        const sheets = Object.values(bundle).filter((file) => file.type === "asset" && file.fileName.endsWith(".css"));
        if (ssr) {
          serverCopies = sheets.map((sheet) => sheet.fileName);
          return;
        }
        if (sheets.length !== 1) this.error(`expected the client build to write one stylesheet, found ${sheets.length}`);
        fs.mkdirSync(buildDirectory, { recursive: true });
        fs.writeFileSync(record, JSON.stringify({ href: `/${sheets[0]!.fileName}` }));
      },
    },
    // Remix has moved the server build's copy by now; nothing links it. Before the files are precompressed.
    closeBundle: {
      order: "pre",
      handler() {
        for (const file of serverCopies) fs.rmSync(path.join(buildDirectory, "client", file), { force: true });
      },
    },
  };
};
