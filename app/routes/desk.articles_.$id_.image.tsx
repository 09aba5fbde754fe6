import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { articlePicture, setArticleImage } from "~/server/desk/images";
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { readPictureForm, uploadAndUse } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { articleImagePath } from "~/app/lib/desk/picture-paths";
import { redirect } from "~/app/lib/http/responses.server";

// An article's hero image (issue 38): upload one, or remove it and show the drawn art again.
// Any state; a published article's page changes on every instance within seconds.

const UPLOADED = "The image is on the article now.";
const REMOVED = "The image is removed: the article shows its drawn art again.";
const STATUS_NAMES = { draft: "Draft", scheduled: "Scheduled", published: "Published", unpublished: "Unpublished" } as const;

function articleId(param: string | undefined): number {
  return /^[1-9]\d{0,9}$/.test(param ?? "") ? Number(param) : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.edit");
  const article = await articlePicture(await requestContext({ request, context }).db(), articleId(params.id));
  if (!article) notFound();
  const { flash, setCookie } = await takeDeskFlash(request, staff.user.id);
  return data(
    { article, notice: flash?.kind === "notice" ? flash.message : null },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.edit");
  const id = articleId(params.id);
  const form = await readPictureForm(request);
  const database = await requestContext({ request, context }).db();
  const actor = auditActor(staff);
  const now = new Date();
  if (form.intent === "refused") return data({ error: { message: form.message, alt: form.alt } }, { status: form.status });
  if (form.intent === "remove") {
    const removed = await setArticleImage(database, actor, id, null, now);
    if (!removed.ok) notFound();
    return done(staff.user.id, id, REMOVED);
  }
  // An unknown article stores nothing.
  if (!(await articlePicture(database, id))) notFound();
  const uploaded = await uploadAndUse(database, actor, form, (imageId) => setArticleImage(database, actor, id, imageId, now), now);
  if (!uploaded.ok) return data({ error: { message: uploaded.message, alt: form.alt } }, { status: uploaded.status });
  if (!uploaded.change.ok) notFound();
  return done(staff.user.id, id, UPLOADED);
}

async function done(userId: string, id: number, text: string) {
  const setCookie = await setDeskFlash(userId, { kind: "notice", message: text });
  return redirect(articleImagePath(id), { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Image: ${args.data.article.title}` : "Article image");

export default function DeskArticleImage() {
  const { article, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={`Image: ${article.title}`}>
      <p className={css.muted}>
        {STATUS_NAMES[article.status]} ·{" "}
        <span className={css.code}>{article.status === "published" ? <Link to={article.path}>{article.path}</Link> : article.path}</span>
      </p>
      <PictureEditor
        noun="image"
        current={article.hero}
        fallback={{
          image: { src: article.fallback.path, alt: article.fallback.alt, ...ARTICLE_ART_SIZE },
          text: "No image uploaded: readers see this drawn art.",
        }}
        sizes="(min-width: 1025px) 42rem, 100vw"
        notice={notice}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
