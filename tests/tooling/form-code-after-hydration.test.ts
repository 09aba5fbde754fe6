import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ASSETS, assetText, routeManifest, upFrontFiles } from "~/tests/helpers/browser-build";

// A page loads its route's modules and the root's up front, as the route manifest lists them; zod
// and the form schemas come later, through the dynamic imports in useSpecForm (ADR 047).

/** A name zod's own code holds (its schema kinds), and so any file that bundles it. */
const ZOD_MARK = "ZodObject";

const holdsZod = (asset: string) => assetText(asset).includes(ZOD_MARK);

describe("the browser build", () => {
  const manifest = routeManifest();

  it("bundles zod in files of its own, which the form schemas load", () => {
    const withZod = fs.readdirSync(ASSETS).filter((name) => name.endsWith(".js") && holdsZod(name));
    expect(withZod.length).toBeGreaterThan(0);
    // Files are named by their hash alone (ADR 049): the sign-in form's is the one that reads the
    // schema off the module it imports (property names survive minifying).
    const js = fs.readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
    const signInForm = js.find((name) => /\.signInSchema\b/.test(assetText(name)));
    expect(signInForm, "the sign-in form's chunk").toBeDefined();
    // The form imports its schema's module when it mounts: that module is a file of its own.
    const imported = [...assetText(signInForm!).matchAll(/import\("\.\/([\w-]+\.js)"\)/g)].map((m) => m[1]!);
    const schemas = imported.find((name) => /export\s*\{[^}]*\bsignInSchema\b/.test(assetText(name)));
    expect(schemas, "the account forms' schema module").toBeDefined();
    expect(schemas).not.toBe(signInForm);
  });

  it("loads no zod before hydrating, on any page", () => {
    const offenders: string[] = [];
    for (const id of Object.keys(manifest.routes)) {
      for (const file of upFrontFiles(manifest, id)) if (holdsZod(file)) offenders.push(`${id}: ${file}`);
    }
    expect(offenders).toEqual([]);
  });
});
