import { z } from "zod";
import { apiErrorSchema, endpoint } from "~/app/lib/api/contract";
import { catalogueQuerySchema } from "~/shared/catalogue-fields";
import { MEDIA_RULES } from "~/shared/media-files";
import { episodeFieldsSchema, episodePatchSchema, videoFieldsSchema, videoPatchSchema } from "~/shared/media-fields";
import { EPISODE_TYPES } from "~/shared/media-vocabulary";
import { ADMIN_PAGE_SIZE, TAG } from "./admin";

// The Admin API's videos and podcast episodes (ADR 083): listed, read, made and changed with the
// desk's own schemas, and their files uploaded as the body of a PUT (the file itself, read as it
// arrives and judged by its bytes). A PATCH names the `version` it read; a stale one changes
// nothing and answers 409 with what is there now, who saved it and when.

const KEY_ROLES = "Needs a key with the Admin or Editor role.";

const lastSave = {
  version: z.number().int().describe("Counts the saves; a PATCH names the version it read."),
  updatedAt: z.string().nullable().describe("When it was last saved at the desk or through the API; null as the seed made it."),
  updatedBy: z.string().nullable().describe("Who saved it last."),
};

export const adminMediaFileSchema = z.object({
  source: z.enum(["upload", "seed", "none"]).describe("An upload, the seed content's file, or nothing yet."),
  url: z.string().url().nullable().describe("Where readers get it (with byte ranges); null when there is nothing."),
  upload: z
    .object({
      id: z.string(),
      contentType: z.string().describe("As decoded from its bytes: what it is served as."),
      bytes: z.number().int(),
      durationSeconds: z.number().int().nullable().describe("Read from the file where its format says it."),
      sha256: z.string(),
      uploadedAt: z.string(),
      uploadedBy: z.string(),
    })
    .nullable(),
});

export const adminVideoSchema = z.object({
  id: z.number().int(),
  slug: z.string().describe("Names the video's poster and seed files; fixed once made."),
  title: z.string(),
  description: z.string(),
  topic: z.string(),
  tags: z.array(z.string()),
  durationSeconds: z.number().int(),
  published: z.string().describe("YYYY-MM-DD"),
  subscriberOnly: z.boolean(),
  playlists: z.array(z.string()).describe("Slugs of the playlists it is in."),
  url: z.string().url().describe("The video's page."),
  file: adminMediaFileSchema,
  captions: adminMediaFileSchema,
  ...lastSave,
});

export const adminEpisodeSchema = z.object({
  id: z.number().int(),
  series: z.string().describe("The series' slug."),
  title: z.string(),
  description: z.string(),
  pubDate: z.string().describe("YYYY-MM-DD"),
  season: z.number().int(),
  episode: z.number().int(),
  episodeType: z.enum(EPISODE_TYPES),
  durationSeconds: z.number().int(),
  url: z.string().url().describe("The episode's page."),
  audio: adminMediaFileSchema,
  ...lastSave,
});

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, "id is a whole number from 1.")
    .transform(Number),
});
const seriesParam = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "series is a series' slug.");
const seriesParams = z.object({ series: seriesParam });
const episodeParams = z.object({ series: seriesParam, id: idParams.shape.id });

const page = (item: z.ZodTypeAny) =>
  z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), items: z.array(item) });

const conflict = (what: string, schema: z.ZodTypeAny) => ({
  description: `The ${what} was saved since the version named: nothing changed. \`current\` is what is there now, \`by\` who saved it and \`at\` when.`,
  schema: apiErrorSchema.extend({ current: schema, by: z.string(), at: z.string().nullable() }),
});

const notFound = (what: string) => ({ description: `No ${what} has this id.`, schema: apiErrorSchema });

const uploaded = (what: string, schema: z.ZodTypeAny) => ({
  200: { description: `The ${what}, with its new file: readers get it at once.`, schema },
  404: notFound(what),
  413: { description: "The body is larger than the file may be.", schema: apiErrorSchema },
  503: {
    description: "The uploads' storage (the bucket) did not answer: nothing was stored. Try again.",
    schema: apiErrorSchema,
    headers: { "Retry-After": "Seconds to wait." },
  },
});

export const listVideos = endpoint({
  method: "get",
  operationId: "adminListVideos",
  path: "/desk/api/videos",
  summary: `Videos, newest first, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the title or slug (any case). ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.read",
  query: catalogueQuerySchema.strict("The parameters are q and page."),
  answers: { 200: { description: "One page of videos, and how many match in all.", schema: page(adminVideoSchema) } },
});

export const createVideo = endpoint({
  method: "post",
  operationId: "adminCreateVideo",
  path: "/desk/api/videos",
  summary:
    "Adds a video (on the site at once); without a `slug`, one is made from the title, fixed once made. `topic` is a topic's " +
    "name, `playlists` playlist slugs (it joins each at its end). Upload its file and captions with PUT. " +
    KEY_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  body: videoFieldsSchema.strict(
    "The fields are title, description, topic, tags, durationSeconds, published, subscriberOnly, playlists and slug.",
  ),
  answers: { 201: { description: "Added.", schema: adminVideoSchema, headers: { Location: "The video's address in the Admin API." } } },
});

export const getVideo = endpoint({
  method: "get",
  operationId: "adminGetVideo",
  path: "/desk/api/videos/{id}",
  summary: `One video, with the version a PATCH names and where its file and captions come from. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.read",
  params: idParams,
  answers: { 200: { description: "The video.", schema: adminVideoSchema }, 404: notFound("video") },
});

export const updateVideo = endpoint({
  method: "patch",
  operationId: "adminUpdateVideo",
  path: "/desk/api/videos/{id}",
  summary: `Changes the fields given over the \`version\` read; a stale version gets 409 and changes nothing. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: idParams,
  body: videoPatchSchema,
  answers: {
    200: { description: "Saved (or nothing differed, and nothing was written).", schema: adminVideoSchema },
    404: notFound("video"),
    409: conflict("video", adminVideoSchema),
  },
});

export const putVideoMedia = endpoint({
  method: "put",
  operationId: "adminPutVideoMedia",
  path: "/desk/api/videos/{id}/media",
  summary:
    `Uploads the video's file as the body (any Content-Type): ${MEDIA_RULES.video} It replaces the seed's file or an earlier ` +
    "upload at once; a WebM's length becomes the video's (a save: its version counts up). Anything else is 400. " +
    KEY_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: idParams,
  binary: `The video file: ${MEDIA_RULES.video}`,
  answers: uploaded("video", adminVideoSchema),
});

export const putVideoCaptions = endpoint({
  method: "put",
  operationId: "adminPutVideoCaptions",
  path: "/desk/api/videos/{id}/captions",
  summary:
    `Uploads the video's captions as the body: ${MEDIA_RULES.captions} Each cue's timing is checked; a file that is not ` +
    "WebVTT (an HTML page named .vtt) is 400 with the line that is wrong. " +
    KEY_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: idParams,
  binary: `The captions: ${MEDIA_RULES.captions}`,
  answers: uploaded("video", adminVideoSchema),
});

export const listEpisodes = endpoint({
  method: "get",
  operationId: "adminListEpisodes",
  path: "/desk/api/podcasts/{series}/episodes",
  summary: `A podcast series' episodes, newest first, ${ADMIN_PAGE_SIZE} a page; \`q\` finds words in the title. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.read",
  params: seriesParams,
  query: catalogueQuerySchema.strict("The parameters are q and page."),
  answers: {
    200: { description: "One page of episodes, and how many match in all.", schema: page(adminEpisodeSchema) },
    404: { description: "No series has this slug.", schema: apiErrorSchema },
  },
});

export const createEpisode = endpoint({
  method: "post",
  operationId: "adminCreateEpisode",
  path: "/desk/api/podcasts/{series}/episodes",
  summary:
    "Adds an episode to the series (on the site and in its feed at once); its season and number must be free in the series. " +
    `Upload its audio with PUT. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: seriesParams,
  body: episodeFieldsSchema.strict("The fields are title, description, pubDate, season, episode, episodeType and durationSeconds."),
  answers: {
    201: { description: "Added.", schema: adminEpisodeSchema, headers: { Location: "The episode's address in the Admin API." } },
    404: { description: "No series has this slug.", schema: apiErrorSchema },
  },
});

export const getEpisode = endpoint({
  method: "get",
  operationId: "adminGetEpisode",
  path: "/desk/api/podcasts/{series}/episodes/{id}",
  summary: `One episode of the series, with the version a PATCH names and where its audio comes from. ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.read",
  params: episodeParams,
  answers: { 200: { description: "The episode.", schema: adminEpisodeSchema }, 404: notFound("episode of this series") },
});

export const updateEpisode = endpoint({
  method: "patch",
  operationId: "adminUpdateEpisode",
  path: "/desk/api/podcasts/{series}/episodes/{id}",
  summary:
    "Changes the fields given over the `version` read; a stale version gets 409 and changes nothing. An episode still playing " +
    `its seed file keeps its season and number (they name the file). ${KEY_ROLES}`,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: episodeParams,
  body: episodePatchSchema,
  answers: {
    200: { description: "Saved (or nothing differed, and nothing was written).", schema: adminEpisodeSchema },
    404: notFound("episode of this series"),
    409: conflict("episode", adminEpisodeSchema),
  },
});

export const putEpisodeAudio = endpoint({
  method: "put",
  operationId: "adminPutEpisodeAudio",
  path: "/desk/api/podcasts/{series}/episodes/{id}/audio",
  summary:
    `Uploads the episode's audio as the body: ${MEDIA_RULES.audio} It replaces the seed's file or an earlier upload at once, ` +
    "and the length read from it becomes the episode's (a save: its version counts up). The feed's enclosure gives its size. " +
    KEY_ROLES,
  tag: TAG,
  access: "desk-key",
  deskAction: "api.media.write",
  params: episodeParams,
  binary: `The MP3: ${MEDIA_RULES.audio}`,
  answers: uploaded("episode of this series", adminEpisodeSchema),
});

export const endpoints = [
  listVideos,
  createVideo,
  getVideo,
  updateVideo,
  putVideoMedia,
  putVideoCaptions,
  listEpisodes,
  createEpisode,
  getEpisode,
  updateEpisode,
  putEpisodeAudio,
];
