import type { ImgHTMLAttributes } from "react";

/**
 * How an image loads. The page's largest image (its LCP element) loads at once and ahead of
 * the rest; any other waits until it nears the screen. React 18 passes the attribute through
 * only when it is written in lowercase (it warns on `fetchPriority`).
 */
export function imageLoading(largest: boolean): ImgHTMLAttributes<HTMLImageElement> {
  return largest
    ? ({ fetchpriority: "high", decoding: "async" } as ImgHTMLAttributes<HTMLImageElement>)
    : { loading: "lazy", decoding: "async" };
}
