import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { articlePicture, setArticleImage } from "~/server/desk/images";
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { pictureAction, withPictureNotice } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { articleImagePath } from "~/app/lib/desk/picture-paths";

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
  return withPictureNotice(request, staff, { article });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.edit");
  const id = articleId(params.id);
  const database = await requestContext({ request, context }).db();
  return pictureAction(request, staff, database, {
    exists: async () => (await articlePicture(database, id)) !== undefined,
    set: (actor, imageId, now) => setArticleImage(database, actor, id, imageId, now),
    path: articleImagePath(id),
    notices: { uploaded: UPLOADED, removed: REMOVED },
  });
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
