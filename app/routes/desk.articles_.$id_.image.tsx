import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { articlePicture, setArticleImage, type ArticlePicture } from "~/server/desk/images";
import { ARTICLE_ART_SIZE } from "~/shared/art-sizes";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { notFound } from "~/app/lib/desk/access.server";
import { loadPicturePage, postPicture, type PicturePage } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { articleImagePath } from "~/app/lib/desk/picture-paths";

// An article's hero image (issue 38): upload one, or remove it and show the drawn art again.
// Any state; a published article's page changes on every instance within seconds.

const STATUS_NAMES = { draft: "Draft", scheduled: "Scheduled", published: "Published", unpublished: "Unpublished" } as const;

const page: PicturePage<number, ArticlePicture> = {
  action: "articles.edit",
  key: (params) => (/^[1-9]\d{0,9}$/.test(params.id ?? "") ? Number(params.id) : notFound()),
  find: articlePicture,
  set: setArticleImage,
  path: articleImagePath,
  uploaded: "The image is on the article now.",
  removed: "The image is removed: the article shows its drawn art again.",
};

export const loader = (args: LoaderFunctionArgs) => loadPicturePage(args, page);

export const action = (args: ActionFunctionArgs) => postPicture(args, page);

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Image: ${args.data.subject.title}` : "Article image");

export default function DeskArticleImage() {
  const { subject: article, notice } = useLoaderData<typeof loader>();
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
