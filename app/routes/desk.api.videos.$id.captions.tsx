import { imageStorage } from "~/server/adapters/image-storage";
import { uploadVideoFile } from "~/server/desk/media";
import { streamPieces } from "~/server/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { announcedTooLarge, apiVideo, uploadAnswer } from "~/app/lib/api/admin-media.server";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { streamedBody } from "~/app/lib/forms/read-body.server";
import { MEDIA_MESSAGES } from "~/shared/media-files";

/** PUT /desk/api/videos/{id}/captions (the Admin API, ADR 083): the body is the file, read as it arrives. */
const route = apiRoute(
  serve(endpoints.putVideoCaptions, async ({ request, context, params, key }) => {
    const refused = announcedTooLarge(request, "captions");
    if (refused) return refused;
    const body = streamedBody(request);
    if (!body) return invalidFields({ file: [MEDIA_MESSAGES.noFile] }, MEDIA_MESSAGES.noFile);
    const database = await requestContext({ request, context }).db();
    const result = await uploadVideoFile(database, imageStorage(), keyEditor(key), params.id, "captions", streamPieces(body), new Date());
    return uploadAnswer(result, "video", apiVideo);
  }),
);

export const loader = route.loader;
export const action = route.action;
