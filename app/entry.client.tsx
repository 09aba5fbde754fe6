import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The server's HTML is the whole page and the scripts only enhance it, so the browser paints it
// first: when the scripts arrive before the first frame (a fast connection, a cached visit),
// hydrating at once would hold the first paint back by the length of that work (ADR 046).
requestAnimationFrame(() => setTimeout(hydrate, 0));
