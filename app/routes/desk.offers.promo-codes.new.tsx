import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createPromo } from "~/server/desk/offers";
import { promoFieldsSchema } from "~/shared/offer-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { PromoFields } from "~/app/components/desk/store/OfferFields";
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

// A new promo code (ADR 091): its code, what it takes off and of what, its days and its limits.
// Shoppers can use it at checkout from its first day.

const loadSchema: SchemaLoader<typeof promoFieldsSchema> = () => import("~/shared/offer-fields").then((m) => m.promoFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  const products = await (await requestContext(args).db()).selectFrom("product").select(["id", "title"]).orderBy("title").execute();
  return { products };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.offers");
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: promoFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createPromo(await requestContext(args).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/offers/promo-codes/${made.value.code}?saved=created`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "New promo code");

export default function DeskNewPromo() {
  const { products } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-promo", loadSchema, actionData?.result, {
    startsOn: new Date().toISOString().slice(0, 10),
  });
  return (
    <DeskPage title="New promo code">
      <p className={css.muted}>
        <Link to="/desk/offers">All offers</Link>
      </p>
      <CatalogueForm spec={spec} button="Add the promo code">
        <TextField
          meta={fields.code}
          label="Code"
          autoComplete="off"
          hint="What shoppers type: 3 to 40 letters, digits and hyphens, kept in capitals. It cannot change once added."
        />
        <PromoFields fields={fields} products={products} chosenProducts={[]} />
      </CatalogueForm>
    </DeskPage>
  );
}
