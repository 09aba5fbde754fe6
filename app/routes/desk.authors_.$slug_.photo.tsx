import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { authorPicture, setAuthorPhoto } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { pictureAction, withPictureNotice } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { authorPhotoPath } from "~/app/lib/desk/picture-paths";

// An author's photo (issue 38), shown beside their bio on every article they wrote. The author
// is named by slug (or by id, as the desk's author pages name them).

const UPLOADED = "The photo is on the author's articles now.";
const REMOVED = "The photo is removed.";

function authorSlug(param: string | undefined): string | number {
  if (/^[1-9]\d{0,9}$/.test(param ?? "")) return Number(param);
  return /^[a-z0-9-]{1,120}$/.test(param ?? "") ? param! : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.edit");
  const author = await authorPicture(await requestContext({ request, context }).db(), authorSlug(params.slug));
  if (!author) notFound();
  return withPictureNotice(request, staff, { author });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.edit");
  const slug = authorSlug(params.slug);
  const database = await requestContext({ request, context }).db();
  return pictureAction(request, staff, database, {
    exists: async () => (await authorPicture(database, slug)) !== undefined,
    set: (actor, imageId, now) => setAuthorPhoto(database, actor, slug, imageId, now),
    path: authorPhotoPath(String(slug)),
    notices: { uploaded: UPLOADED, removed: REMOVED },
  });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Photo: ${args.data.author.name}` : "Author photo");

export default function DeskAuthorPhoto() {
  const { author, notice } = useLoaderData<typeof loader>();
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
