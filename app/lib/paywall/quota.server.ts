import { readQuota, type MeterName } from "~/server/paywall/meter";
import { userKey, visitorKey } from "~/server/readers/keys";
import { offerRules } from "./article-access.server";
import type { RequestContext } from "~/app/lib/context/request-context.server";

/**
 * The reader's meter as JSON. Registered readers have one meter for every article; guests have
 * an article meter and an Ascend meter. Subscribers are not metered (`metered: false`).
 */
export async function quotaResponse(asker: RequestContext, meter: MeterName): Promise<Response> {
  const { reader, setCookie } = await asker.reader();
  const database = await asker.db();
  const rules = offerRules();
  const quota =
    reader.kind === "guest"
      ? await readQuota(database, visitorKey(reader.visitorId), meter, meter === "ascend" ? rules.ascendLimit : rules.guestLimit)
      : await readQuota(database, userKey(reader.userId), "article", rules.registeredLimit);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return Response.json({ ...quota, metered: reader.kind !== "subscriber" }, { headers });
}
