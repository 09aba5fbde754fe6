import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createProduct, productChoices } from "~/server/desk/products";
import { productFieldsSchema } from "~/shared/product-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { ProductFields } from "~/app/components/desk/store/ProductFields";
import * as css from "~/app/components/desk/desk.css";
import { TextField } from "~/app/components/forms/fields";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new store product (ADR 091): its fields first; its formats, prices, cover and files are added
// on its own page, where it goes next. Shoppers see it once it has a format on sale or coming soon.

const loadSchema: SchemaLoader<typeof productFieldsSchema> = () => import("~/shared/product-fields").then((m) => m.productFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  return productChoices(await requestContext(args).db());
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: productFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createProduct(await requestContext(args).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/products/${made.value.id}?saved=created`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "New product");

export default function DeskNewProduct() {
  const { topics } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-product", loadSchema, actionData?.result, {
    published: new Date().toISOString().slice(0, 10),
    pages: "0",
  });
  return (
    <DeskPage title="New product">
      <p className={css.muted}>
        <Link to="/desk/products">All products</Link>
      </p>
      <p>Add the product&apos;s formats and prices on the next page: shoppers see it once one of them is on sale or coming soon.</p>
      <CatalogueForm spec={spec} button="Add the product">
        <ProductFields fields={fields} topics={topics} />
        <TextField
          meta={fields.slug}
          label="Slug (optional)"
          autoComplete="off"
          hint="Lowercase letters, digits and hyphens; left empty, it is made from the title. It names the product's pages and cover, so it cannot change once the product is added."
        />
      </CatalogueForm>
    </DeskPage>
  );
}
