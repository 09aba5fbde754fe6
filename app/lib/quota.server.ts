import { readQuota, type MeterName } from "~/server/paywall/meter";
import { userKey, visitorKey } from "~/server/readers/keys";
import { db } from "./db.server";
import { offerRules, readerContext } from "./reader.server";

/**
 * The reader's meter as JSON. Registered readers have one meter for every article; guests have
 * an article meter and an Ascend meter. Subscribers are not metered (`metered: false`).
 */
export async function quotaResponse(request: Request, meter: MeterName): Promise<Response> {
  const { reader, setCookie } = await readerContext(request);
  const rules = offerRules();
  const quota =
    reader.kind === "guest"
      ? await readQuota(await db(), visitorKey(reader.visitorId), meter, meter === "ascend" ? rules.ascendLimit : rules.guestLimit)
      : await readQuota(await db(), userKey(reader.userId), "article", rules.registeredLimit);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return Response.json({ ...quota, metered: reader.kind !== "subscriber" }, { headers });
}
