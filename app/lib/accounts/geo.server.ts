import type { AppLoadContext } from "@remix-run/node";
import { configuredGeo, regionOf, type Geo, type Region } from "~/server/adapters/geo";
import { databaseCountryCache } from "~/server/adapters/geo-cache";
import { requestContext } from "~/app/lib/context/request-context.server";
import { db } from "~/app/lib/context/db.server";

let site: Promise<Geo> | undefined;

/** Where the reader is (US/Canada, the EU or elsewhere): it decides the registration opt-in. */
export async function visitorRegion(request: Request, context: AppLoadContext): Promise<Region> {
  if (!site) {
    site = db().then((database) => configuredGeo(databaseCountryCache(database)));
    // A database not reachable yet is asked again by the next request.
    site.catch(() => (site = undefined));
  }
  return regionOf(await (await site).countryOf(request, requestContext({ request, context }).clientAddress));
}
