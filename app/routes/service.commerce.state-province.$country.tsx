import { isCountry, regionsOf } from "~/shared/regions";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { stateProvince } from "~/app/lib/api/groups/lookups";

/** GET /service/commerce/state-province/{country} (spec 7): the states or provinces to choose from. */
const route = apiRoute(
  serve(stateProvince, async ({ params: { country } }) =>
    isCountry(country)
      ? apiJson({ country, regions: regionsOf(country) }, { headers: { "Cache-Control": "public, max-age=86400" } })
      : apiError(404, "unknown_country", "Unknown country"),
  ),
);

export const loader = route.loader;
export const action = route.action;
