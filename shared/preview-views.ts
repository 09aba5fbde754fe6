// The views of an article's preview (ADR 079): what a guest with free reads left, a guest at the
// wall, and a subscriber see.

export const PREVIEW_VIEWS = ["guest", "wall", "subscriber"] as const;
export type PreviewView = (typeof PREVIEW_VIEWS)[number];

export const PREVIEW_VIEW_NAMES: Record<PreviewView, string> = {
  guest: "Guest, before the wall",
  wall: "At the wall",
  subscriber: "Subscriber",
};

export const isPreviewView = (value: unknown): value is PreviewView => PREVIEW_VIEWS.includes(value as PreviewView);
