import path from "node:path";
import type { Plugin } from "vite";

/**
 * Every page loads the root route and all it imports, so the browser build puts the app's
 * modules in that graph in one chunk. Left to itself, Rollup makes a chunk for each set of
 * routes sharing a module, which gave every page about twenty files of 0.1 to 1.7 KB, each
 * compressed on its own and each listed in the route manifest (ADR 045).
 */
export function rootChunk(appDirectory: string): Plugin {
  const root = path.resolve(appDirectory, "root.tsx");
  const formKit = path.resolve(appDirectory, "components/forms") + path.sep;
  // Pages with a form load these together. The captcha (sign-in and registration only) stays
  // apart, and so do the form styles' class names, which pages with only a button use too: named
  // here, or Rollup would put them in the kit's chunk with the modules that import them.
  const captcha = path.join(formKit, "CaptchaToken.tsx");
  const formStyles = path.join(formKit, "forms.css.ts");
  return {
    name: "root-chunk",
    apply: "build",
    config(_config, env) {
      if (env.isSsrBuild) return undefined;
      type ModuleInfo = { importers: readonly string[] } | null;
      const inRootGraph = new Map<string, boolean>();
      // A module inside an import cycle may look unreached while the walk is still on the cycle,
      // so only a whole walk's answer is kept, and any module found to reach the root.
      const reaches = (id: string, getModuleInfo: (id: string) => ModuleInfo, seen: Set<string>): boolean => {
        if (id === root || inRootGraph.get(id) === true) return true;
        if (seen.has(id)) return false;
        seen.add(id);
        const found = (getModuleInfo(id)?.importers ?? []).some((importer) => reaches(importer, getModuleInfo, seen));
        if (found) inRootGraph.set(id, true);
        return found;
      };
      const reachedFromRoot = (id: string, getModuleInfo: (id: string) => ModuleInfo): boolean => {
        const known = inRootGraph.get(id);
        if (known !== undefined) return known;
        const found = reaches(id, getModuleInfo, new Set());
        inRootGraph.set(id, found);
        return found;
      };
      return {
        build: {
          rollupOptions: {
            output: {
              manualChunks(id, { getModuleInfo }) {
                if (id.startsWith("\0")) return undefined;
                if (reachedFromRoot(id, getModuleInfo)) {
                  // React and Remix change less often than the app: a file of their own stays cached across releases.
                  return id.includes("/node_modules/") ? "framework" : "shell";
                }
                if (id.startsWith(formStyles)) return "form-styles";
                // One file instead of five for every page with a form: conform, the fields, the error summary.
                if ((id.startsWith(formKit) && id !== captcha) || /\/node_modules\/@conform-to\/(react|dom)\//.test(id)) return "forms";
                return undefined;
              },
            },
          },
        },
      };
    },
  };
}
