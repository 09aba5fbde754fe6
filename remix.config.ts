import type { VitePluginConfig } from "@remix-run/dev";

// Remix's tooling never reads this file; vite.config.ts imports it (see docs/decisions/001-remix-config-module.md).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const config: VitePluginConfig = {
  appDirectory: "app",
  buildDirectory: "build",
  ignoredRouteFiles: ["**/*.css.ts", "**/*.test.*"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: false,
  },
};

export default config;
