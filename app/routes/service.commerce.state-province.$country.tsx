import type { LoaderFunctionArgs } from "@remix-run/node";
import { isCountry, regionsOf } from "../../shared/regions";
import { withSecurityHeaders } from "../lib/responses.server";

/** GET /service/commerce/state-province/{country} (spec 7): the states or provinces to choose from. */
export const loader = withSecurityHeaders(function loader({ params }: LoaderFunctionArgs) {
  const country = (params.country ?? "").toUpperCase();
  if (!isCountry(country)) return Response.json({ error: "Unknown country" }, { status: 404 });
  return Response.json({ country, regions: regionsOf(country) }, { headers: { "Cache-Control": "public, max-age=86400" } });
});
