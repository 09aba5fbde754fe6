import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskProduct, productChoices, saveProduct, type DeskProduct } from "~/server/desk/products";
import { PRODUCT_COVER_SIZE } from "~/shared/art-sizes";
import { formatUsd } from "~/shared/money";
import { productEditSchema } from "~/shared/product-fields";
import { AVAILABILITY_STATE_NAMES, LINE_TYPE_NAMES } from "~/shared/product-vocabulary";
import { productCoverPath } from "~/shared/urls";
import { CoverPicture } from "~/app/components/store/CoverPicture";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { ProductFields } from "~/app/components/desk/store/ProductFields";
import * as css from "~/app/components/desk/desk.css";
import * as store from "~/app/components/desk/store/store-desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { productCoverPagePath } from "~/app/lib/desk/picture-paths";
import { idParam, savedNotice, staleSave } from "~/app/lib/desk/store-catalogue.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One store product (ADR 091): its fields, its formats with their status and the price in force
// (each format's own page changes it, schedules prices and takes its download file), and its
// cover. The form carries the version it was opened at; a save over a newer one is refused with
// who saved it and when, the saved version beside the form, and the form's own changes kept.

const loadSchema: SchemaLoader<typeof productEditSchema> = () => import("~/shared/product-fields").then((m) => m.productEditSchema);

const NOTICES = {
  created: "Product added. Add a format below: shoppers see the product once one is on sale or coming soon.",
  saved: "Saved. Shoppers see the change at once.",
  unchanged: "Nothing had changed, so nothing was saved.",
};

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  const db = await requestContext(args).db();
  const product = await getDeskProduct(db, idParam(args.params.id));
  if (!product) notFound();
  return {
    product: {
      ...product,
      updatedAt: product.updatedAt && deskTime(product.updatedAt),
      availabilities: product.availabilities.map((a) => ({
        ...a,
        price: formatUsd(a.priceCents),
        next: a.nextPrice && `${formatUsd(a.nextPrice.priceCents)} from ${deskTime(a.nextPrice.startsAt)}`,
        available: a.availableDate,
      })),
    },
    choices: await productChoices(db),
    saved: savedNotice(args, NOTICES),
  };
}

const savedVersion = (product: DeskProduct): SavedVersion => ({
  version: product.version,
  facts: [
    ["Title", product.title],
    ["Product type", product.productType],
    ["Topic", product.topic],
    ["Authors", product.authors.join(", ") || "None"],
    ["Summary", product.summary],
    ["Description", product.description],
    ["Published", product.published],
    ["Pages", String(product.pages)],
  ],
});

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const id = idParam(args.params.id);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: productEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await saveProduct(await requestContext(args).db(), deskEditor(staff), id, submission.value, new Date());
  if (result.ok) return redirect(`/desk/products/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleSave("product", result.current)] }, 409, { saved: savedVersion(result.current) });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Product: ${args.data.product.title}` : "Product");

export default function DeskProductPage() {
  const { product, choices, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-product", loadSchema, actionData?.result, {
    title: product.title,
    productType: product.productType,
    topic: product.topic,
    authors: product.authors.join(", "),
    summary: product.summary,
    description: product.description,
    published: product.published,
    pages: String(product.pages),
  });
  return (
    <DeskPage title={product.title}>
      <p className={css.muted}>
        <Link to="/desk/products">All products</Link> · slug <span className={css.code}>{product.slug}</span> (fixed)
        {product.path ? (
          <>
            {" "}
            · <a href={product.path}>its page</a>
          </>
        ) : null}
      </p>
      <section aria-labelledby="formats-heading">
        <h2 id="formats-heading">Formats</h2>
        {product.availabilities.length === 0 ? (
          <p>No formats yet: shoppers do not see the product until it has one on sale or coming soon.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">The product&apos;s formats</caption>
            <thead>
              <tr>
                <th scope="col">Format</th>
                <th scope="col">Code</th>
                <th scope="col">Line type</th>
                <th scope="col">Language</th>
                <th scope="col">Status</th>
                <th scope="col">Price now</th>
                <th scope="col">Next price</th>
              </tr>
            </thead>
            <tbody>
              {product.availabilities.map((a) => (
                <tr key={a.id}>
                  <td data-label="Format">
                    <Link to={`/desk/products/${product.id}/formats/${a.id}`}>{a.format}</Link>
                  </td>
                  <td data-label="Code">{a.code}</td>
                  <td data-label="Line type">{LINE_TYPE_NAMES[a.lineType]}</td>
                  <td data-label="Language">{a.language}</td>
                  <td data-label="Status">
                    {AVAILABILITY_STATE_NAMES[a.state]}
                    {a.state === "coming-soon" && a.available ? ` (from ${a.available})` : null}
                  </td>
                  <td data-label="Price now">{a.price}</td>
                  <td data-label="Next price">{a.next ?? "None scheduled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          <Link to={`/desk/products/${product.id}/formats/new`}>Add a format</Link>
        </p>
      </section>
      <CatalogueEditor
        noun="product"
        saved={saved}
        mayEdit
        stale={stale}
        version={product.version}
        spec={spec}
        button="Save the product"
        about={
          <RowFacts
            title="About this product"
            facts={[
              ["Version", String(product.version)],
              ["Last saved", product.updatedAt ? `${product.updatedAt} by ${product.updatedBy}` : "As the seed content made it"],
              [
                "Cover",
                <>
                  {product.cover ? (
                    <CoverPicture picture={product.cover} alt={`Cover of ${product.title}`} sizes="9rem" className={store.cover} />
                  ) : (
                    <img
                      className={store.cover}
                      src={productCoverPath(product.slug)}
                      alt={`The drawn cover of ${product.title}`}
                      width={PRODUCT_COVER_SIZE.width / 4}
                      height={PRODUCT_COVER_SIZE.height / 4}
                    />
                  )}{" "}
                  <Link to={productCoverPagePath(product.id)}>{product.cover ? "Change or remove the cover" : "Upload a cover"}</Link>
                </>,
              ],
            ]}
          />
        }
      >
        <ProductFields fields={fields} topics={choices.topics} />
      </CatalogueEditor>
    </DeskPage>
  );
}
