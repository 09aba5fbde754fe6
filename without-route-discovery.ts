import type { Plugin } from "vite";

/**
 * With lazy route discovery off (ADR 033), Remix's browser code for it never runs: every route
 * is in the manifest the page loads. The browser build gets a module with the same exports that
 * says discovery is off, and every page sheds about 1.1 KB of compressed JS (ADR 049).
 */
export function withoutRouteDiscovery(lazyRouteDiscovery: boolean | undefined): Plugin {
  return {
    name: "without-route-discovery",
    apply: "build",
    enforce: "pre",
    load(id, options) {
      if (lazyRouteDiscovery || options?.ssr || !id.replaceAll("\\", "/").endsWith("/@remix-run/react/dist/esm/fog-of-war.js")) return null;
      return `const off = () => {
  throw new Error("lazy route discovery is off in this build");
};
export const isFogOfWarEnabled = () => false;
export const getPatchRoutesOnNavigationFunction = () => undefined;
export const useFogOFWarDiscovery = () => {};
export const getPartialManifest = off;
export const fetchAndApplyManifestPatches = off;
`;
    },
  };
}
