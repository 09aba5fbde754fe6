import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { authorPicture, setAuthorPhoto, type AuthorPicture } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import { notFound } from "~/app/lib/desk/access.server";
import { loadPicturePage, postPicture, type PicturePage } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { authorPhotoPath } from "~/app/lib/desk/picture-paths";

// An author's photo (issue 38), shown beside their bio on every article they wrote. The author
// is named by slug (or by id, as the desk's author pages name them).

function authorSlug(param: string | undefined): string | number {
  if (/^[1-9]\d{0,9}$/.test(param ?? "")) return Number(param);
  return /^[a-z0-9-]{1,120}$/.test(param ?? "") ? param! : notFound();
}

const page: PicturePage<string | number, AuthorPicture> = {
  action: "authors.edit",
  key: (params) => authorSlug(params.slug),
  find: authorPicture,
  set: setAuthorPhoto,
  path: (slug) => authorPhotoPath(String(slug)),
  uploaded: "The photo is on the author's articles now.",
  removed: "The photo is removed.",
};

export const loader = (args: LoaderFunctionArgs) => loadPicturePage(args, page);

export const action = (args: ActionFunctionArgs) => postPicture(args, page);

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Photo: ${args.data.subject.name}` : "Author photo");

export default function DeskAuthorPhoto() {
  const { subject: author, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={`Photo: ${author.name}`}>
      <PictureEditor
        noun="photo"
        current={author.photo}
        fallback={{ text: "No photo uploaded: articles show the author's name and bio alone." }}
        sizes="16rem"
        narrow
        notice={notice}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
