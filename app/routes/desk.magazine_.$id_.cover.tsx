import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { issuePicture, setIssueCover, type IssuePicture } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { notFound } from "~/app/lib/desk/access.server";
import { loadPicturePage, postPicture, type PicturePage } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { issueCoverPagePath } from "~/app/lib/desk/picture-paths";

// A magazine issue's cover (issue 38): upload one, or remove it and show the drawn cover again.
// The archive, the issue's page (and its og:image), the home page and search show it within
// seconds on every instance.

const page: PicturePage<number, IssuePicture> = {
  action: "issues.edit",
  key: (params) => (/^[1-9]\d{0,8}$/.test(params.id ?? "") ? Number(params.id) : notFound()),
  find: issuePicture,
  set: setIssueCover,
  path: issueCoverPagePath,
  uploaded: "The cover is on the issue now.",
  removed: "The cover is removed: the issue shows its drawn cover again.",
};

export const loader = (args: LoaderFunctionArgs) => loadPicturePage(args, page);

export const action = (args: ActionFunctionArgs) => postPicture(args, page);

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Cover: ${args.data.subject.monthLabel} ${args.data.subject.year}` : "Issue cover");

export default function DeskIssueCover() {
  const { subject: issue, notice } = useLoaderData<typeof loader>();
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
