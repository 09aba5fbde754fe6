// Any address no other route claims: the 404 page inside the site chrome.
export function loader() {
  throw new Response(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
