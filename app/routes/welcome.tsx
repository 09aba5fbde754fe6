import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { OnboardingMessage } from "~/app/components/OnboardingOverlay";
import * as prose from "~/app/components/prose.css";
import { primaryButton } from "~/app/components/controls.css";
import { db } from "~/app/lib/db.server";
import { redirect } from "~/app/lib/responses.server";
import { requireUser } from "~/app/lib/session.server";
import { SITE_NAME } from "~/app/lib/site";

/** The onboarding message as a page: what a subscription includes, for a subscriber to come back to. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!(await subscriberStatus(await db(), user.id))) throw redirect("/subscriptions");
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
