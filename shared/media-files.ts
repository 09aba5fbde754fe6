// Uploaded media files (ADR 083) as the desk's pages and the Admin API describe them: what each
// kind of file may be, how large, and what a refusal says. A store product's download file
// (ADR 091) is kept the same way.

export const MEDIA_KINDS = ["video", "captions", "audio", "download"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const MB = 1024 * 1024;

/** The largest file of each kind, in bytes. */
export const MEDIA_MAX_BYTES: Record<MediaKind, number> = { video: 500 * MB, captions: 1 * MB, audio: 200 * MB, download: 200 * MB };

/** What the desk's file inputs offer to pick (the bytes decide, whatever is picked). */
export const MEDIA_ACCEPT: Record<MediaKind, string> = {
  video: "video/webm,video/mp4,.webm,.mp4",
  captions: "text/vtt,.vtt",
  audio: "audio/mpeg,.mp3",
  download: "application/pdf,application/epub+zip,application/zip,.pdf,.epub,.zip,.pptx,.xlsx",
};

/** What each kind of file may be, as the forms' hints and refusals say it. */
export const MEDIA_RULES: Record<MediaKind, string> = {
  video: "A WebM or MP4 video of up to 500 MB.",
  captions: "A WebVTT file of up to 1 MB.",
  audio: "An MP3 of up to 200 MB.",
  download: "A PDF, an EPUB or a ZIP archive (PowerPoint and Excel files are ZIP archives) of up to 200 MB.",
};

export const MEDIA_MESSAGES = {
  wrongType: {
    video: "Upload a WebM or MP4 video of up to 500 MB.",
    captions: "Upload captions as a WebVTT file of up to 1 MB.",
    audio: "Upload an MP3 of up to 200 MB.",
    download: "Upload a PDF, an EPUB or a ZIP archive of up to 200 MB.",
  } satisfies Record<MediaKind, string>,
  noFile: "Choose a file to upload.",
  brokenOff: "The upload broke off before it ended: try again.",
  unreadable: "The form could not be read: choose the file and upload it again.",
  unavailable: "The uploads' storage did not answer, so nothing was stored: try again in a minute.",
} as const;
