import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { issuePicture, setIssueCover } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { pictureAction, withPictureNotice } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { issueCoverPagePath } from "~/app/lib/desk/picture-paths";

// A magazine issue's cover (issue 38): upload one, or remove it and show the drawn cover again.
// The archive, the issue's page (and its og:image), the home page and search show it within
// seconds on every instance.

const UPLOADED = "The cover is on the issue now.";
const REMOVED = "The cover is removed: the issue shows its drawn cover again.";

function issueId(param: string | undefined): number {
  return /^[1-9]\d{0,8}$/.test(param ?? "") ? Number(param) : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.edit");
  const issue = await issuePicture(await requestContext({ request, context }).db(), issueId(params.id));
  if (!issue) notFound();
  return withPictureNotice(request, staff, { issue });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.edit");
  const id = issueId(params.id);
  const database = await requestContext({ request, context }).db();
  return pictureAction(request, staff, database, {
    exists: async () => (await issuePicture(database, id)) !== undefined,
    set: (actor, imageId, now) => setIssueCover(database, actor, id, imageId, now),
    path: issueCoverPagePath(id),
    notices: { uploaded: UPLOADED, removed: REMOVED },
  });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Cover: ${args.data.issue.monthLabel} ${args.data.issue.year}` : "Issue cover");

export default function DeskIssueCover() {
  const { issue, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={`Cover: ${issue.monthLabel} ${issue.year}`}>
      <p className={css.muted}>
        <Link to={`/desk/magazine/${issue.id}`}>
          Issue {issue.code}: {issue.title}
        </Link>{" "}
        · <a href={issue.path}>{issue.path}</a>
      </p>
      <PictureEditor
        noun="cover"
        current={issue.cover}
        fallback={{
          image: { src: issue.fallback.path, alt: issue.fallback.alt, width: issue.fallback.width, height: issue.fallback.height },
          text: "No cover uploaded: readers see this drawn cover, with the issue's title and date.",
        }}
        sizes="16rem"
        narrow
        notice={notice}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
