import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";

// The browser build (npm test builds before Vitest runs): a page loads its route's modules and
// the root's up front, as the route manifest lists them; zod and the form schemas come later,
// through the dynamic imports in useSpecForm (ADR 047).

const ASSETS = path.resolve("build/client/assets");
/** A name zod's own code holds (its schema kinds), and so any file that bundles it. */
const ZOD_MARK = "ZodObject";

type RouteEntry = { id: string; parentId?: string; module: string; imports?: string[] };

function routeManifest(): { entry: { module: string; imports: string[] }; routes: Record<string, RouteEntry> } {
  if (!fs.existsSync(ASSETS)) throw new Error("no browser build: run `npm run build` first");
  const file = fs.readdirSync(ASSETS).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("the build has no route manifest");
  const sandbox: { window: { __remixManifest?: ReturnType<typeof routeManifest> } } = { window: {} };
  vm.runInNewContext(fs.readFileSync(path.join(ASSETS, file), "utf8"), sandbox);
  return sandbox.window.__remixManifest!;
}

const holdsZod = (asset: string) => fs.readFileSync(path.join(ASSETS, path.basename(asset)), "utf8").includes(ZOD_MARK);

describe("the browser build", () => {
  const manifest = routeManifest();

  it("bundles zod in files of its own, which the form schemas load", () => {
    const withZod = fs.readdirSync(ASSETS).filter((name) => name.endsWith(".js") && holdsZod(name));
    expect(withZod.length).toBeGreaterThan(0);
    const signInForm = fs.readdirSync(ASSETS).find((name) => /^SignInForm-[\w-]+\.js$/.test(name));
    expect(signInForm, "the sign-in form's chunk").toBeDefined();
    // The form imports its schema's module when it mounts: that module is a file of its own.
    expect(fs.readFileSync(path.join(ASSETS, signInForm!), "utf8")).toMatch(/import\("\.\/account-[\w-]+\.js"\)/);
  });

  it("loads no zod before hydrating, on any page", () => {
    const upFront = (id: string): string[] => {
      const route = manifest.routes[id]!;
      return [route.module, ...(route.imports ?? []), ...(route.parentId ? upFront(route.parentId) : [])];
    };
    const offenders: string[] = [];
    for (const id of Object.keys(manifest.routes)) {
      const files = [manifest.entry.module, ...manifest.entry.imports, ...upFront(id)];
      for (const file of new Set(files)) if (holdsZod(file)) offenders.push(`${id}: ${file}`);
    }
    expect(offenders).toEqual([]);
  });
});
