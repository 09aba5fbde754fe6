import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SiteMenuContent } from "~/app/components/SiteMenu";
import { returnPath } from "~/app/lib/http/redirects";
import { SITE_NAME } from "~/app/lib/forms/cross-site";

/** The phone header's menu as a page of its own, for a browser without JS (SiteMenu.tsx). */
export async function loader({ request }: LoaderFunctionArgs) {
  const returnTo = returnPath(new URL(request.url).searchParams.get("return"));
  return { returnTo };
}

export const meta: MetaFunction = () => [{ title: `Menu | ${SITE_NAME}` }, { name: "robots", content: "noindex, nofollow" }];

export default function Menu() {
  const { returnTo } = useLoaderData<typeof loader>();
  return (
    <nav aria-labelledby="menu-heading">
      <h1 id="menu-heading">Menu</h1>
      <SiteMenuContent returnTo={returnTo} />
    </nav>
  );
}
