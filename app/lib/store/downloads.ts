// Addresses of the subscriber downloads, shared by the pages that link to them and the routes
// that serve them.

/** A reprint's product id: "R" and the article's id. */
export const reprintPath = (articleId: number) => `/download/subscriber/reprint/R${articleId}`;

export function articleIdFromReprint(productId: string): number | undefined {
  const match = /^R([1-9]\d{0,9})$/.exec(productId);
  return match ? Number(match[1]) : undefined;
}

/** A visual-library chart, for the subscriber whose id is in the address: the SVG, or with ".png" its PNG. */
export const chartPath = (userId: string, slug: string, format: "svg" | "png" = "svg") =>
  `/visual-library/download/${encodeURIComponent(userId)}/${encodeURIComponent(slug)}${format === "png" ? ".png" : ""}`;
