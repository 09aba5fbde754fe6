import { useFetcher, useLocation } from "@remix-run/react";
import { useRootData } from "~/app/lib/http/root-data";
import type { TextSize } from "~/app/lib/accounts/preferences.server";
import { toolButton } from "./controls.css";
import { ToolIcon } from "./ToolIcon";

const FETCHER_KEY = "text-size";

/**
 * The text size the page shows: the one being saved, else the saved one. The toggle and the
 * document root both read it, so the button and the text change together.
 */
export function useTextSize(): TextSize {
  const root = useRootData();
  const pending = useFetcher({ key: FETCHER_KEY }).formData?.get("size");
  return (pending ?? root?.textSize) === "large" ? "large" : "standard";
}

/** A plain form (works without JS); with JS it posts with a fetcher and the page re-renders in place. */
export function TextSizeToggle() {
  const fetcher = useFetcher({ key: FETCHER_KEY });
  const location = useLocation();
  const large = useTextSize() === "large";
  return (
    <fetcher.Form method="post" action="/preferences/text-size" data-no-print="">
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="size" value={large ? "standard" : "large"} />
      <button type="submit" className={toolButton} aria-pressed={large}>
        <ToolIcon name="text-size" />
        Larger text
      </button>
    </fetcher.Form>
  );
}
