import { Suspense, type ReactNode } from "react";
import { useHydrated } from "./useHydrated";

/**
 * A Suspense boundary around a lazily loaded part of a server-rendered page. React hydrates such
 * a part only once its chunk has arrived, after the rest of the page; until then its forms are
 * plain forms. The hidden mark says when the part has been hydrated, so browser tests (and
 * anything else that must know) can wait for it.
 */
export function Deferred({ fallback = null, children }: { fallback?: ReactNode; children: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      {children}
      <HydrationMark />
    </Suspense>
  );
}

function HydrationMark() {
  return <span hidden data-deferred={useHydrated() ? "ready" : "pending"} />;
}
