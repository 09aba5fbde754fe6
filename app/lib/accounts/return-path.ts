import { useLocation, useMatches } from "@remix-run/react";

/**
 * Where a sign-in, registration or menu link on this page leads back to: this page, or, on one
 * of those pages, where that page leads. Their loaders work it out on the server (returnPath in
 * ./redirects.ts) and give it as `returnTo`, so such links never wrap one another and the
 * browser needs none of the checking code.
 */
export function useReturnPath(): string {
  const { pathname, search } = useLocation();
  const leadsTo = useMatches()
    .map((match) => (match.data as { returnTo?: unknown } | undefined)?.returnTo)
    .find((value): value is string => typeof value === "string");
  return leadsTo ?? `${pathname}${search}`;
}
