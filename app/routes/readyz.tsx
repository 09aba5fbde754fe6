import { sql } from "kysely";
import { db } from "~/app/lib/context/db.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { log } from "~/server/log";

/** How long the database may take to answer before this instance is reported not ready. */
const ANSWER_WITHIN_MS = 2_000;

/**
 * For load balancers and orchestrators: 200 once the database is open, migrated and seeded and
 * answers a query; 503 otherwise (the cause goes to the server's log, not to the caller).
 */
export const loader = withSecurityHeaders(async function loader() {
  const headers = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answered = db().then((database) => sql`select 1`.execute(database));
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    });
    await Promise.race([answered, late]);
    return new Response("ready\n", { headers });
  } catch (error) {
    log.error("Not ready", { error });
    return new Response("not ready\n", { status: 503, headers });
  } finally {
    clearTimeout(timer);
  }
});
