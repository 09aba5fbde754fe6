// Videos and podcast episodes at the desk and through the Admin API (ADR 083).
export type { FileSource } from "./files";
export {
  createEpisode,
  getDeskEpisode,
  listDeskEpisodes,
  listPodcastSeries,
  podcastSeriesBySlug,
  updateEpisode,
  type DeskEpisode,
  type DeskSeries,
  type EpisodeListing,
} from "./episodes";
export {
  createVideo,
  getDeskVideo,
  listDeskVideos,
  updateVideo,
  videoChoices,
  type DeskVideo,
  type VideoChoices,
  type VideoListing,
} from "./videos";
export { uploadEpisodeAudio, uploadVideoFile, type UploadResult } from "./uploads";
