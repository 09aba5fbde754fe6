import type { AppLoadContext } from "@remix-run/node";
import type { DocumentOnly } from "~/app/lib/http/document-only";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /**
     * True when the production server (server/http) knows the request is for a whole document,
     * not a `.data` request. Unset under `remix-serve`: loaders then send everything as data.
     */
    documentRequest?: boolean;
    /** What the document's render gets beside the loader data (app/lib/http/document-only.tsx). */
    documentOnly?: DocumentOnly;
    /** Set by handleError when a loader or action failed because the database was away: the answer is a 503. */
    databaseUnavailable?: boolean;
  }
}

/**
 * Gives `value` to the render of this document and returns true, when the request is known to
 * be a document's; false when the caller must send it as data (a `.data` request, or a server
 * that does not say).
 */
export function keepOutOfHydrationData(context: AppLoadContext | undefined, key: string, value: unknown): boolean {
  if (!context?.documentRequest) return false;
  context.documentOnly = { ...context.documentOnly, [key]: value };
  return true;
}
