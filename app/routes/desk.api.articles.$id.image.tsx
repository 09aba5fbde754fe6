import { keyActor } from "~/server/desk/api-keys";
import { apiImage, imageRef, setArticleImage as setImage } from "~/server/desk/images";
import { IMAGE_ID_UNKNOWN, setArticleImage } from "~/app/lib/api/groups/admin";
import { apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { articleNotFound } from "~/app/lib/api/admin-articles.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** PUT /desk/api/articles/{id}/image (the Admin API): an uploaded image as the article's hero, or none. */
const route = apiRoute(
  serve(setArticleImage, async ({ request, context, params, body, key }) => {
    const database = await requestContext({ request, context }).db();
    const changed = await setImage(database, keyActor(key), params.id, body.imageId, new Date());
    if (!changed.ok) return changed.reason === "missing-image" ? invalidFields({ imageId: [IMAGE_ID_UNKNOWN] }) : articleNotFound();
    const image = changed.imageId === null ? undefined : await imageRef(database, changed.imageId);
    return apiJson({ id: params.id, image: image ? apiImage(image, config().siteUrl) : null });
  }),
);

export const loader = route.loader;
export const action = route.action;
