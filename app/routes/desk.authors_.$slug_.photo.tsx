import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { authorPicture, setAuthorPhoto } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { readPictureForm, uploadAndUse } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { authorPhotoPath } from "~/app/lib/desk/picture-paths";
import { redirect } from "~/app/lib/http/responses.server";

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
  const { flash, setCookie } = await takeDeskFlash(request, staff.user.id);
  return data(
    { author, notice: flash?.kind === "notice" ? flash.message : null },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.edit");
  const slug = authorSlug(params.slug);
  const form = await readPictureForm(request);
  const database = await requestContext({ request, context }).db();
  const actor = auditActor(staff);
  const now = new Date();
  if (form.intent === "refused") return data({ error: { message: form.message, alt: form.alt } }, { status: form.status });
  if (form.intent === "remove") {
    const removed = await setAuthorPhoto(database, actor, slug, null, now);
    if (!removed.ok) notFound();
    return done(staff.user.id, slug, REMOVED);
  }
  if (!(await authorPicture(database, slug))) notFound();
  const uploaded = await uploadAndUse(database, actor, form, (imageId) => setAuthorPhoto(database, actor, slug, imageId, now), now);
  if (!uploaded.ok) return data({ error: { message: uploaded.message, alt: form.alt } }, { status: uploaded.status });
  if (!uploaded.change.ok) notFound();
  return done(staff.user.id, slug, UPLOADED);
}

async function done(userId: string, slug: string | number, text: string) {
  const setCookie = await setDeskFlash(userId, { kind: "notice", message: text });
  return redirect(authorPhotoPath(String(slug)), { status: 303, headers: { "Set-Cookie": setCookie } });
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
