import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AddedToCart } from "../components/store/AddedToCart";
import { currentCartId } from "../lib/cart.server";
import { addedConfirmation } from "../lib/cart-confirmation.server";
import { seo, siteUrlFrom } from "../lib/seo";
import { currentUser } from "../lib/session.server";

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Added to your cart",
    description: "The item you added to your shopping cart.",
    path: "/shopping-cart/added",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

/** Where adding to the cart without JS lands; only the shopper's own cart lines are shown. */
export async function loader({ request }: LoaderFunctionArgs) {
  const lineId = new URL(request.url).searchParams.get("line") ?? "";
  const user = await currentUser(request);
  const cartId = await currentCartId(request, user?.id);
  const confirmation = cartId && /^[0-9a-f-]{36}$/.test(lineId) ? await addedConfirmation(cartId, lineId) : null;
  if (!confirmation) throw new Response("No such line in your cart", { status: 404 });
  return confirmation;
}

export default function AddedToCartPage() {
  const confirmation = useLoaderData<typeof loader>();
  return <AddedToCart confirmation={confirmation} headingLevel={1} after={<Link to="/store">Continue shopping</Link>} />;
}
