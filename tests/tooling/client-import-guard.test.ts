import fs from "node:fs";
import path from "node:path";
import { build } from "vite";
import { afterEach, describe, expect, it } from "vitest";

// Builds a two-file Remix app with the project's guard: the client build of the real site takes
// far longer, and what matters is how the guard treats each kind of import.
let fixture: string;

function writeApp(route: string) {
  fs.mkdirSync(path.join(process.cwd(), ".cache"), { recursive: true });
  fixture = fs.mkdtempSync(path.join(process.cwd(), ".cache", "client-import-guard-"));
  const files: Record<string, string> = {
    "package.json": JSON.stringify({
      name: "guard-fixture",
      private: true,
      type: "module",
      dependencies: { "@remix-run/node": "*", "@remix-run/react": "*", react: "*", "react-dom": "*" },
    }),
    "server/db.ts": `import fs from "node:fs";\nexport const rowCount = () => fs.readdirSync(".").length;\n`,
    "shared/label.ts": `export const label = (n: number) => \`\${n} rows\`;\n`,
    // The Remix plugin insists on a config file of the app's own; it takes the project's guard and Remix options.
    "vite.config.ts": [
      `import { vitePlugin as remix } from "@remix-run/dev";`,
      `import { clientImportGuard } from ${JSON.stringify(path.join(process.cwd(), "client-import-guard"))};`,
      `import remixConfig from ${JSON.stringify(path.join(process.cwd(), "remix.config"))};`,
      // The site's import alias, so the routes below import as the site's own do.
      `export default { plugins: [clientImportGuard(), remix(remixConfig)], resolve: { alias: [{ find: /^~\\//, replacement: ${JSON.stringify(fixture + "/")} }] }, build: { minify: false } };`,
    ].join("\n"),
    // Without entry files of its own, Remix would install a package into the fixture for its default server entry.
    "app/entry.client.tsx": `import { RemixBrowser } from "@remix-run/react";\nimport { hydrateRoot } from "react-dom/client";\nhydrateRoot(document, <RemixBrowser />);\n`,
    "app/entry.server.tsx": `import { RemixServer } from "@remix-run/react";\nimport type { EntryContext } from "@remix-run/node";\nimport { renderToString } from "react-dom/server";\nexport default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {\n  return new Response("<!DOCTYPE html>" + renderToString(<RemixServer context={context} url={request.url} />), { status, headers });\n}\n`,
    "app/root.tsx": `import { Outlet } from "@remix-run/react";\nexport default function Root() {\n  return <Outlet />;\n}\n`,
    "app/routes/_index.tsx": route,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(fixture, name)), { recursive: true });
    fs.writeFileSync(path.join(fixture, name), text);
  }
}

const buildClient = () => build({ root: fixture, configFile: path.join(fixture, "vite.config.ts"), logLevel: "silent" });

afterEach(() => fs.rmSync(fixture, { recursive: true, force: true }));

describe("the client build's import guard", () => {
  it("builds a route whose loader alone uses server code, and whose component uses shared code", async () => {
    writeApp(`import { useLoaderData } from "@remix-run/react";
import { rowCount } from "~/server/db";
import { label } from "~/shared/label";
export const loader = () => ({ rows: rowCount() });
export default function Index() {
  return <p>{label(useLoaderData<typeof loader>().rows)}</p>;
}
`);
    await expect(buildClient()).resolves.toBeDefined();
  });

  it("fails the build, naming both files, when a component uses server code", async () => {
    writeApp(`import { rowCount } from "~/server/db";
export default function Index() {
  return <p>{rowCount()}</p>;
}
`);
    await expect(buildClient()).rejects.toThrow(/Import denied[\s\S]*Importer: app\/routes\/_index\.tsx[\s\S]*Resolved: server\/db\.ts/);
  });

  it("fails the build when a component uses a Node built-in or a database package", async () => {
    writeApp(`import { sql } from "kysely";
import os from "node:os";
export default function Index() {
  return <p>{os.hostname()}{String(sql)}</p>;
}
`);
    await expect(buildClient()).rejects.toThrow(/Import denied[\s\S]*Import: "(kysely|node:os)"/);
  });
});
