import type { Plugin } from "vite";
import { denyImports } from "vite-env-only";

// What the browser bundle must never contain (docs/decisions/027). Route modules may still import
// server/ for their loaders and actions: Remix strips those exports, and the imports they alone
// used, from the client build before Vite resolves anything.
export const clientDenials = {
  specifiers: [/^node:/, "better-sqlite3", "pg", "kysely", "nodemailer", "stripe", "pdfkit"],
  // Matched against the resolved path relative to the Vite root.
  files: ["server/**"],
};

// The specifier check runs on builds only: in development Remix looks the server's own imports
// (kysely, node:fs…) up in the browser's module graph while collecting a page's CSS, which that
// check would take for client imports. The file check tells those look-ups apart and runs in both.
export const clientImportGuard = () =>
  (denyImports({ client: clientDenials }) as Plugin[]).map((plugin) =>
    plugin.name === "deny-imports/specifiers" ? { ...plugin, apply: "build" as const } : plugin,
  );
