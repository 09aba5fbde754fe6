import { notFound } from "~/app/lib/desk/access.server";

// Any other /desk address: the site's ordinary 404, for a GET or a POST alike and whoever asks.
export const loader = () => notFound();
export const action = () => notFound();

export default function DeskNotFound() {
  return null;
}
