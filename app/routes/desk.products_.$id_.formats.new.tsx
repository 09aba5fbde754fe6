import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createAvailability, getDeskProduct } from "~/server/desk/products";
import { availabilityFieldsSchema } from "~/shared/product-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { AvailabilityFields } from "~/app/components/desk/store/AvailabilityFields";
import * as css from "~/app/components/desk/desk.css";
import { TextField } from "~/app/components/forms/fields";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { idParam } from "~/app/lib/desk/store-catalogue.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new format of a store product (ADR 091): what it is, how it is delivered, its first price and
// whether it is sold. A format on sale can be bought as soon as it is added.

const loadSchema: SchemaLoader<typeof availabilityFieldsSchema> = () =>
  import("~/shared/product-fields").then((m) => m.availabilityFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  const product = await getDeskProduct(await requestContext(args).db(), idParam(args.params.id));
  if (!product) notFound();
  return { product: { id: product.id, title: product.title } };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const productId = idParam(args.params.id);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: availabilityFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createAvailability(await requestContext(args).db(), deskEditor(staff), productId, submission.value, new Date());
  if (!made.ok) {
    if (made.reason === "not-found") notFound();
    return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  }
  return redirect(`/desk/products/${productId}/formats/${made.value.id}?saved=created`, 303);
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `New format: ${args.data.product.title}` : "New format");

export default function DeskNewFormat() {
  const { product } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-format", loadSchema, actionData?.result, {
    language: "English",
    status: "on-sale",
    preorderCharge: "payment",
  });
  return (
    <DeskPage title={`New format: ${product.title}`}>
      <p className={css.muted}>
        <Link to={`/desk/products/${product.id}`}>The product&apos;s details</Link>
      </p>
      <CatalogueForm spec={spec} button="Add the format">
        <AvailabilityFields fields={fields} chosen={{ permissionsAvailable: false, volumePricing: false }} />
        <TextField
          meta={fields.listPrice as Parameters<typeof TextField>[0]["meta"]}
          label="Price (US dollars)"
          autoComplete="off"
          width="medium"
          hint="Such as 24.00. Later prices are scheduled on the format's page, from the moment you choose."
        />
      </CatalogueForm>
    </DeskPage>
  );
}
