import { notFound } from "~/app/lib/desk/access.server";

// /desk/x/y: the 404, as desk.$.tsx gives every other desk address. The article route
// ($year.$month.$slug) outranks a splat at three segments, and its action answers a post with
// 403 (notes are for subscribers), which would tell a reader that something is here.
export const loader = () => notFound();
export const action = () => notFound();

export default function DeskItemNotFound() {
  return null;
}
