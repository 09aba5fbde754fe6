import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  getDeskVoucher,
  OFFER_STATE_NAMES,
  saveVoucher,
  setVoucherDisabled,
  voucherItems,
  voucherUsesOf,
  type DeskVoucher,
} from "~/server/desk/offers";
import { voucherEditSchema } from "~/shared/offer-fields";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { VoucherFields } from "~/app/components/desk/store/OfferFields";
import { OfferUses } from "~/app/components/desk/store/OfferUses";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { codeParam, savedNotice, shownUse, staleSave } from "~/app/lib/desk/store-catalogue.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One voucher (ADR 091): whether it can be redeemed now, its terms (saved over the version the
// form was opened at), a button that disables it or enables it again, and the orders it gave.

const loadSchema: SchemaLoader<typeof voucherEditSchema> = () => import("~/shared/offer-fields").then((m) => m.voucherEditSchema);

const NOTICES = {
  created: "Voucher added. Readers redeem it at /redeem?voucher_code= and its code.",
  saved: "Saved. Redeeming follows the new terms at once.",
  unchanged: "Nothing had changed, so nothing was saved.",
  disabled: "Disabled: readers are told it is no longer available. Orders it gave stand.",
  enabled: "Enabled again.",
};

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  const code = codeParam(args.params.code);
  const db = await requestContext(args).db();
  const voucher = await getDeskVoucher(db, code);
  if (!voucher) notFound();
  const [items, uses] = await Promise.all([voucherItems(db), voucherUsesOf(db, code)]);
  // A voucher may give a format since retired: it stays the form's choice.
  const choices = items.some((i) => i.availabilityId === voucher.item.availabilityId) ? items : [voucher.item, ...items];
  return {
    voucher: { ...voucher, updatedAt: voucher.updatedAt && deskTime(voucher.updatedAt), stateName: OFFER_STATE_NAMES[voucher.state] },
    items: choices,
    uses: { total: uses.total, shown: uses.uses.map(shownUse) },
    saved: savedNotice(args, NOTICES),
  };
}

const savedVersion = (v: DeskVoucher): SavedVersion => ({
  version: v.version,
  facts: [
    ["Gives", v.item.label],
    ["Days", v.startsOn || v.endsOn ? `${v.startsOn ?? "any day"} to ${v.endsOn ?? "no end"}` : "Always"],
    ["Uses in all", String(v.maxUses)],
    ["Uses per reader", v.maxUsesPerReader === null ? "No limit" : String(v.maxUsesPerReader)],
  ],
});

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.offers");
  const code = codeParam(args.params.code);
  const form = await readForm(args.request);
  const db = await requestContext(args).db();
  const intent = form.get("intent");
  if (intent === "disable" || intent === "enable") {
    const done = await setVoucherDisabled(db, deskEditor(staff), code, intent === "disable", new Date());
    if (!done.ok) notFound();
    return redirect(`/desk/offers/vouchers/${code}?saved=${intent}d`, 303);
  }
  const submission = parseWithZod(form, { schema: voucherEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await saveVoucher(db, deskEditor(staff), code, submission.value, new Date());
  if (result.ok) return redirect(`/desk/offers/vouchers/${code}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleSave("voucher", result.current)] }, 409, { saved: savedVersion(result.current) });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Voucher ${args.data.voucher.code}` : "Voucher");

export default function DeskVoucherPage() {
  const { voucher, items, uses, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-voucher", loadSchema, actionData?.result, {
    availability: String(voucher.item.availabilityId),
    startsOn: voucher.startsOn ?? "",
    endsOn: voucher.endsOn ?? "",
    maxUses: String(voucher.maxUses),
    maxUsesPerReader: voucher.maxUsesPerReader === null ? "" : String(voucher.maxUsesPerReader),
  });
  const disabled = voucher.disabledAt !== null;
  return (
    <DeskPage title={`Voucher ${voucher.code}`}>
      <p className={css.muted}>
        <Link to="/desk/offers">All offers</Link> · {voucher.stateName} · {voucher.item.label} · used by {voucher.standingUses} of{" "}
        {voucher.maxUses}
      </p>
      <Form method="post" className={forms.actions}>
        <input type="hidden" name="intent" value={disabled ? "enable" : "disable"} />
        <button type="submit" className={forms.secondaryButton}>
          {disabled ? "Enable the voucher again" : "Disable the voucher"}
        </button>
        <span className={forms.hint}>
          {disabled
            ? `Disabled at ${deskTime(voucher.disabledAt!)}: readers are told it is no longer available.`
            : "Readers are then told it is no longer available; orders it gave stand."}
        </span>
      </Form>
      <CatalogueEditor
        noun="voucher"
        saved={saved}
        mayEdit
        stale={stale}
        version={voucher.version}
        spec={spec}
        button="Save the voucher"
        about={
          <RowFacts
            title="About this voucher"
            facts={[
              ["Version", String(voucher.version)],
              ["Last saved", voucher.updatedAt ? `${voucher.updatedAt} by ${voucher.updatedBy}` : "As the seed content made it"],
              ["Redeemed at", `/redeem?voucher_code=${voucher.code}`],
            ]}
          />
        }
      >
        <VoucherFields fields={fields} items={items} />
      </CatalogueEditor>
      <OfferUses uses={uses.shown} total={uses.total} noun="voucher" />
    </DeskPage>
  );
}
