import { authenticateApiKey, recordApiCall, type ApiKey } from "~/server/desk/api-keys";
import type { Database } from "~/server/db/connection";

// The Admin API's caller (ADR 074): the staff API key in `Authorization: Bearer …`, and nothing
// else. Cookies are never read, so a signed-in staff member's browser cannot be made to call it.

const BEARER = /^Bearer +(\S+) *$/i;

/** The live key the request carries, or why there is none. */
export async function deskKeyFor(request: Request, db: Database): Promise<ApiKey | "missing" | "invalid"> {
  const header = request.headers.get("Authorization");
  if (!header) return "missing";
  const given = BEARER.exec(header)?.[1];
  return (given && (await authenticateApiKey(db, given, new Date()))) || "invalid";
}

/** Logs a call a key made, whatever it answered. */
export async function recordDeskCall(db: Database, key: ApiKey, request: Request, status: number): Promise<void> {
  const url = new URL(request.url);
  await recordApiCall(db, key, { method: request.method, path: url.pathname, query: url.search, status }, new Date());
}
