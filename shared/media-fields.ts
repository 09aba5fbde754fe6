import { z } from "zod";
import { calendarDate } from "./article-fields";
import { versionField } from "./catalogue-fields";
import { EPISODE_TYPES, parseDuration } from "./media-vocabulary";

// Videos and podcast episodes as the desk's forms and the Admin API write them (ADR 083): one
// schema for each, which conform checks in the browser and on the server and the API parses its
// JSON with. The domain (server/desk/media) adds the rules that need the database: a topic that
// exists, a slug or an episode number no other has.

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const MEDIA_FIELD_MESSAGES = {
  title: "Enter a title of up to 200 characters.",
  description: "Enter a description of up to 3,000 characters.",
  slug: "Enter a slug of lowercase letters, digits and single hyphens, up to 80 characters.",
  topic: "Choose the video's topic.",
  tags: "Enter up to 20 tags, separated by commas, each up to 40 characters.",
  duration: "Enter the length as minutes:seconds (12:30), hours:minutes:seconds, or seconds, up to 24 hours.",
  published: "Enter the publication date as YYYY-MM-DD.",
  playlists: "Choose playlists from the list.",
  season: "Enter the season as a whole number from 1 to 999.",
  episode: "Enter the episode's number, a whole number from 1 to 9999.",
  episodeType: "Choose full episode, bonus or trailer.",
} as const;

const m = MEDIA_FIELD_MESSAGES;

const text = (max: number, message: string) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(max, message);

/** A length in seconds: a number (the API), or text as the form takes it. */
const duration = z.preprocess(
  (value) => (typeof value === "string" ? (parseDuration(value) ?? value) : value),
  z.number({ invalid_type_error: m.duration, required_error: m.duration }).int(m.duration).min(0, m.duration).max(86_400, m.duration),
);

/** Tags: a list (the API), or text separated by commas (the form). */
const tags = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean)
      : value,
  z.array(z.string({ invalid_type_error: m.tags }).trim().min(1, m.tags).max(40, m.tags), { invalid_type_error: m.tags }).max(20, m.tags),
);

const flag = z.boolean({ invalid_type_error: "Answer true or false." });

const videoText = {
  title: text(200, m.title),
  description: text(3000, m.description),
  /** The topic's name, any case. */
  topic: text(80, m.topic),
  tags: tags.default([]),
  /** Seconds; left out, it is read from a WebM when one is uploaded (0 until then). */
  durationSeconds: duration.optional(),
  published: calendarDate,
  subscriberOnly: flag.default(false),
  /** Playlist slugs: the video is last in each it joins. */
  playlists: z
    .array(z.string({ invalid_type_error: m.playlists }).trim().max(80, m.playlists).regex(SLUG, m.playlists), {
      invalid_type_error: m.playlists,
    })
    .max(50, m.playlists)
    .default([]),
};

/** A new video: its slug is made from the title when left out, and is fixed once made (it names its seed files and poster). */
export const videoFieldsSchema = z.object({
  ...videoText,
  slug: z.string({ invalid_type_error: m.slug }).trim().max(80, m.slug).regex(SLUG, m.slug).optional(),
});
export type VideoFields = z.infer<typeof videoFieldsSchema>;

/** The desk's edit form: every field but the slug, and the version read. */
export const videoEditSchema = z.object({ ...videoText, version: versionField });

/** The Admin API's PATCH: any of the fields, and the version read. */
export const videoPatchSchema = z
  .object({
    title: videoText.title.optional(),
    description: videoText.description.optional(),
    topic: videoText.topic.optional(),
    tags: tags.optional(),
    durationSeconds: duration.optional(),
    published: calendarDate.optional(),
    subscriberOnly: flag.optional(),
    playlists: videoText.playlists.removeDefault().optional(),
    version: versionField,
  })
  .strict(
    "The fields are title, description, topic, tags, durationSeconds, published, subscriberOnly, playlists and version; a video's slug is fixed once made.",
  );
export type VideoPatch = z.infer<typeof videoPatchSchema>;

const whole = (min: number, max: number, message: string) =>
  z.number({ invalid_type_error: message, required_error: message }).int(message).min(min, message).max(max, message);

const episodeText = {
  title: text(200, m.title),
  description: text(3000, m.description),
  pubDate: calendarDate,
  season: whole(1, 999, m.season),
  episode: whole(1, 9999, m.episode),
  episodeType: z.enum(EPISODE_TYPES, { errorMap: () => ({ message: m.episodeType }) }),
  /** Seconds; left out, it is read from the MP3 when one is uploaded (0 until then). */
  durationSeconds: duration.optional(),
};

export const episodeFieldsSchema = z.object(episodeText);
export type EpisodeFields = z.infer<typeof episodeFieldsSchema>;

export const episodeEditSchema = z.object({ ...episodeText, version: versionField });

export const episodePatchSchema = z
  .object({
    title: episodeText.title.optional(),
    description: episodeText.description.optional(),
    pubDate: calendarDate.optional(),
    season: episodeText.season.optional(),
    episode: episodeText.episode.optional(),
    episodeType: episodeText.episodeType.optional(),
    durationSeconds: duration.optional(),
    version: versionField,
  })
  .strict("The fields are title, description, pubDate, season, episode, episodeType, durationSeconds and version.");
export type EpisodePatch = z.infer<typeof episodePatchSchema>;
