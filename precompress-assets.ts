import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Plugin } from "vite";

// The production server sends a file's .br or .gz sibling when the client accepts it and never
// compresses a static file per request (server/http/static.ts). This writes those siblings once,
// at the strongest settings, for the client build's text files.
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|map)$/;
/** Below this, compression saves less than the headers it costs. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name));
}

async function precompress(file: string): Promise<void> {
  const content = await fs.readFile(file);
  if (content.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  // A sibling that is not smaller would only cost a file read.
  if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
  if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
}

/**
 * Brotli (quality 11) and gzip (level 9) siblings for the text files of the client build, in the
 * folder given. Remix writes the route manifest and the server build's CSS into it while the
 * server is built, after the client build: so this runs last, when the server build closes.
 */
export const precompressAssets = (clientFolder: string): Plugin => {
  let ssr = false;
  return {
    name: "meridian:precompress-assets",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        if (!ssr) return;
        // Not Vite's own .vite folder: Remix deletes it once the build is done.
        const files = (await filesUnder(clientFolder)).filter(
          (f) => COMPRESSIBLE.test(f) && !path.relative(clientFolder, f).startsWith("."),
        );
        await Promise.all(files.map(precompress));
      },
    },
  };
};
