import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createVoucher, voucherItems } from "~/server/desk/offers";
import { voucherFieldsSchema } from "~/shared/offer-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { VoucherFields } from "~/app/components/desk/store/OfferFields";
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

// A new voucher (ADR 091): its code, the format it gives at no charge, its days and its limits.
// Readers redeem it at /redeem?voucher_code=CODE.

const loadSchema: SchemaLoader<typeof voucherFieldsSchema> = () => import("~/shared/offer-fields").then((m) => m.voucherFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  return { items: await voucherItems(await requestContext(args).db()) };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.offers");
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: voucherFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createVoucher(await requestContext(args).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/offers/vouchers/${made.value.code}?saved=created`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "New voucher");

export default function DeskNewVoucher() {
  const { items } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-voucher", loadSchema, actionData?.result, { maxUses: "1", maxUsesPerReader: "1" });
  return (
    <DeskPage title="New voucher">
      <p className={css.muted}>
        <Link to="/desk/offers">All offers</Link>
      </p>
      <CatalogueForm spec={spec} button="Add the voucher">
        <TextField
          meta={fields.code}
          label="Code"
          autoComplete="off"
          hint="What the reader is given: 3 to 40 letters, digits and hyphens, kept in capitals. It cannot change once added."
        />
        <VoucherFields fields={fields} items={items} />
      </CatalogueForm>
    </DeskPage>
  );
}
