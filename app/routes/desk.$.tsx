import { notFound } from "~/app/lib/desk/access.server";

// Any other /desk address: the site's ordinary 404, for a GET or a POST alike and whoever asks.
// (Three-segment addresses have a route of their own: desk.$section.$item.tsx.)
export const loader = () => notFound();
export const action = () => notFound();

export default function DeskNotFound() {
  return null;
}
