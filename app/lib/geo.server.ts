import type { AppLoadContext } from "@remix-run/node";
import { configuredGeo, isDomestic, type Geo } from "../../server/adapters/geo";
import { databaseCountryCache } from "../../server/geo-cache";
import { clientAddress } from "./client-address.server";
import { db } from "./db.server";

let site: Promise<Geo> | undefined;

/** Whether the reader is in the US or Canada, which decides the registration opt-in default. */
export async function isDomesticVisitor(request: Request, context: AppLoadContext | undefined): Promise<boolean> {
  if (!site) {
    site = db().then((database) => configuredGeo(databaseCountryCache(database)));
    // A database not reachable yet is asked again by the next request.
    site.catch(() => (site = undefined));
  }
  return isDomestic(await (await site).countryOf(request, clientAddress(request, context)));
}
