import { keyActor } from "~/server/desk/api-keys";
import { apiImage, imageRef, setIssueCover as setCover } from "~/server/desk/images";
import { IMAGE_ID_UNKNOWN } from "~/app/lib/api/groups/admin";
import { setIssueCover } from "~/app/lib/api/groups/admin-issues";
import { apiError, apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** PUT /desk/api/issues/{id}/cover (the Admin API): an uploaded image as the issue's cover, or none. */
const route = apiRoute(
  serve(setIssueCover, async ({ request, context, params, body, key }) => {
    const database = await requestContext({ request, context }).db();
    const changed = await setCover(database, keyActor(key), params.id, body.imageId, new Date());
    if (!changed.ok)
      return changed.reason === "missing-image"
        ? invalidFields({ imageId: [IMAGE_ID_UNKNOWN] })
        : apiError(404, "not_found", "No issue has this id.");
    const image = changed.imageId === null ? undefined : await imageRef(database, changed.imageId);
    return apiJson({ id: params.id, cover: image ? apiImage(image, config().siteUrl) : null });
  }),
);

export const loader = route.loader;
export const action = route.action;
