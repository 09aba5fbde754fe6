import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { productPicture, setProductCover, type ProductPicture } from "~/server/desk/images";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PictureEditor } from "~/app/components/desk/PictureEditor";
import * as css from "~/app/components/desk/desk.css";
import { loadPicturePage, postPicture, type PicturePage } from "~/app/lib/desk/image-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { productCoverPagePath } from "~/app/lib/desk/picture-paths";
import { idParam } from "~/app/lib/desk/store-catalogue.server";

// A store product's cover (ADR 091): upload one, or remove it and show the drawn cover again. The
// store, the product's pages, carts and articles' promos show it at once.

const page: PicturePage<number, ProductPicture> = {
  action: "catalogue.products",
  key: (params) => idParam(params.id),
  find: productPicture,
  set: setProductCover,
  path: productCoverPagePath,
  uploaded: "The cover is on the product now.",
  removed: "The cover is removed: the product shows its drawn cover again.",
};

export const loader = (args: LoaderFunctionArgs) => loadPicturePage(args, page);

export const action = (args: ActionFunctionArgs) => postPicture(args, page);

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Cover: ${args.data.subject.title}` : "Product cover");

export default function DeskProductCover() {
  const { subject: product, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={`Cover: ${product.title}`}>
      <p className={css.muted}>
        <Link to={`/desk/products/${product.id}`}>The product&apos;s details</Link>
      </p>
      <PictureEditor
        noun="cover"
        current={product.cover}
        fallback={{
          image: { src: product.fallback.path, alt: product.fallback.alt, width: product.fallback.width, height: product.fallback.height },
          text: "No cover uploaded: shoppers see this drawn cover, with the product's title and authors.",
        }}
        sizes="16rem"
        narrow
        notice={notice}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
