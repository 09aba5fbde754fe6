import { productById } from "~/server/store/catalogue";
import { money } from "~/app/lib/api/cart.server";
import { availabilities } from "~/app/lib/api/groups/cart";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { db } from "~/app/lib/context/db.server";

/** GET /service/product/{id}/availabilities (spec 7): the product page's availabilities, as the spec's Product availability. */
const route = apiRoute(
  serve(availabilities, async ({ params: { id } }) => {
    const product = await productById(await db(), id);
    if (!product) return apiError(404, "unknown_product", "This item is not in our catalogue.");
    return apiJson({
      productId: product.id,
      title: product.title,
      availabilities: product.availabilities.map((a) => ({
        availabilityId: a.id,
        format: a.format,
        language: a.language,
        listPrice: money(a.listPriceCents),
        lineType: a.lineType,
        status: a.retired ? ("RETIRED" as const) : a.comingSoon ? ("COMING_SOON" as const) : ("AVAILABLE" as const),
        availableDate: a.availableDate,
        permissionsAvailable: a.permissionsAvailable,
        isVolumePricingAvailable: a.volumePricing,
        productUrl: a.url,
      })),
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
