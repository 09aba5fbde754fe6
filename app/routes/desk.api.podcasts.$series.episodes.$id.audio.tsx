import { imageStorage } from "~/server/adapters/image-storage";
import { podcastSeriesBySlug, uploadEpisodeAudio } from "~/server/desk/media";
import { streamPieces } from "~/server/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { announcedTooLarge, apiEpisode, uploadAnswer } from "~/app/lib/api/admin-media.server";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiRoute, invalidFields, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { streamedBody } from "~/app/lib/forms/read-body.server";
import { MEDIA_MESSAGES } from "~/shared/media-files";

const WHAT = "episode of this series";

/** PUT /desk/api/podcasts/{series}/episodes/{id}/audio (the Admin API, ADR 083): the body is the MP3, read as it arrives. */
const route = apiRoute(
  serve(endpoints.putEpisodeAudio, async ({ request, context, params, key }) => {
    const refused = announcedTooLarge(request, "audio");
    if (refused) return refused;
    const database = await requestContext({ request, context }).db();
    const series = await podcastSeriesBySlug(database, params.series);
    if (!series) return notFoundAnswer(WHAT);
    const body = streamedBody(request);
    if (!body) return invalidFields({ file: [MEDIA_MESSAGES.noFile] }, MEDIA_MESSAGES.noFile);
    const result = await uploadEpisodeAudio(database, imageStorage(), keyEditor(key), series, params.id, streamPieces(body), new Date());
    return uploadAnswer(result, WHAT, apiEpisode);
  }),
);

export const loader = route.loader;
export const action = route.action;
