import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AddedToCart } from "~/app/components/store/AddedToCart";
import { MAX_ADD_ITEMS } from "~/app/lib/store/cart-forms";
import { addedConfirmation } from "~/app/lib/store/cart-confirmation.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { requestContext } from "~/app/lib/context/request-context.server";

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Added to your cart",
    description: "What you added to your shopping cart.",
    path: "/shopping-cart/added",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

/** Where adding to the cart without JS lands (one line, or several added together); only the shopper's own cart lines are shown. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const lineIds = [...new Set(new URL(request.url).searchParams.getAll("line"))];
  const cartId = await requestContext({ request, context }).cartId();
  const valid = lineIds.length > 0 && lineIds.length <= MAX_ADD_ITEMS && lineIds.every((id) => /^[0-9a-f-]{36}$/.test(id));
  const confirmation = cartId && valid ? await addedConfirmation(cartId, lineIds) : null;
  if (!confirmation) throw new Response("No such line in your cart", { status: 404 });
  return confirmation;
}

export default function AddedToCartPage() {
  const confirmation = useLoaderData<typeof loader>();
  return <AddedToCart confirmation={confirmation} headingLevel={1} after={<Link to="/store">Continue shopping</Link>} />;
}
