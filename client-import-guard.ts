import { denyImports } from "vite-env-only";

// What the browser bundle must never contain (docs/decisions/027). Route modules may still import
// server/ for their loaders and actions: Remix strips those exports, and the imports they alone
// used, from the client build before Vite resolves anything.
export const clientDenials = {
  specifiers: [/^node:/, "better-sqlite3", "pg", "kysely", "nodemailer", "stripe", "pdfkit"],
  // Matched against the resolved path relative to the Vite root.
  files: ["server/**"],
};

export const clientImportGuard = () => denyImports({ client: clientDenials });
