import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { OnboardingMessage } from "~/app/components/OnboardingOverlay";
import * as prose from "~/app/components/prose.css";
import { primaryButton } from "~/app/components/controls.css";
import { redirect } from "~/app/lib/http/responses.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";

/** The onboarding message as a page: what a subscription includes, for a subscriber to come back to. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context });
  if (!(await requestContext({ request, context }).subscriber())) throw redirect("/subscriptions");
  return null;
}

export const meta: MetaFunction = () => [{ title: `Welcome | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];

export default function Welcome() {
  return (
    <article className={prose.narrow}>
      <OnboardingMessage headingLevel="h1" />
      <Link className={primaryButton} to="/the-latest">
        Start reading
      </Link>
    </article>
  );
}
