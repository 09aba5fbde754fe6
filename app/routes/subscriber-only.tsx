import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import * as prose from "~/app/components/prose.css";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";

const FEATURES = {
  reprint: "PDF reprints of articles are",
  chart: "Chart downloads from the visual library are",
} as const;

/** Where a signed-in reader without a subscription lands when asking for a subscriber download. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const feature: keyof typeof FEATURES = url.searchParams.get("feature") === "chart" ? "chart" : "reprint";
  const from = safeRedirectPath(url.searchParams.get("from"), "");
  return data({ feature, from }, { status: 403 });
}

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Subscribers only",
    description: "This download is part of a subscription.",
    path: "/subscriber-only",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function SubscriberOnly() {
  const { feature, from } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Subscribers only</h1>
      <p>
        {FEATURES[feature]} part of a Meridian Review subscription. Subscribe to download them, gift articles and keep notes on what you
        read.
      </p>
      <p>
        <Link className={primaryButton} to="/subscriptions">
          See subscription options
        </Link>
      </p>
      {from ? (
        <p>
          <Link to={from}>Back to the article</Link>
        </p>
      ) : null}
    </div>
  );
}
