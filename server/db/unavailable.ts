// Whether an error means the database could not be reached, rather than that a query was wrong:
// the site then answers 503 ("try again shortly") instead of 500.

/** Node's network errors when a connection cannot be made or is cut. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's: class 08 (connection exception), and the server shutting down or starting up
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now).
 */
const isPostgresUnavailable = (code: string) => code.startsWith("08") || ["57P01", "57P02", "57P03"].includes(code);

/** node-postgres's own words when it gives up on a connection. */
const POOL_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || isPostgresUnavailable(code))) return true;
    if (POOL_MESSAGES.test(e.message)) return true;
  }
  return false;
}
