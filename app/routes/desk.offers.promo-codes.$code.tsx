import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskPromo, OFFER_STATE_NAMES, promoUsesOf, savePromo, setPromoDisabled, type DeskPromo } from "~/server/desk/offers";
import { formatUsd } from "~/shared/money";
import { promoEditSchema } from "~/shared/offer-fields";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { PromoFields } from "~/app/components/desk/store/OfferFields";
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

// One promo code (ADR 091): whether it works now, its terms (saved over the version the form was
// opened at), a button that disables it or enables it again, and the orders that used it.

const loadSchema: SchemaLoader<typeof promoEditSchema> = () => import("~/shared/offer-fields").then((m) => m.promoEditSchema);

const NOTICES = {
  created: "Promo code added.",
  saved: "Saved. The checkout applies the new terms at once.",
  unchanged: "Nothing had changed, so nothing was saved.",
  disabled: "Disabled: shoppers are told it is no longer available. Orders that used it keep their discount.",
  enabled: "Enabled again.",
};

const gives = (p: Pick<DeskPromo, "percentOff" | "amountOffCents">) =>
  p.percentOff !== null ? `${p.percentOff}% off` : `${formatUsd(p.amountOffCents ?? 0)} off`;

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  const code = codeParam(args.params.code);
  const db = await requestContext(args).db();
  const promo = await getDeskPromo(db, code);
  if (!promo) notFound();
  const [products, uses] = await Promise.all([
    db.selectFrom("product").select(["id", "title"]).orderBy("title").execute(),
    promoUsesOf(db, code),
  ]);
  return {
    promo: {
      ...promo,
      updatedAt: promo.updatedAt && deskTime(promo.updatedAt),
      stateName: OFFER_STATE_NAMES[promo.state],
      gives: gives(promo),
    },
    products,
    uses: { total: uses.total, shown: uses.uses.map(shownUse) },
    saved: savedNotice(args, NOTICES),
  };
}

const savedVersion = (p: DeskPromo): SavedVersion => ({
  version: p.version,
  facts: [
    ["Description", p.description],
    ["Gives", gives(p)],
    ["Items", [p.productType ?? "Every type", p.products.map((x) => x.title).join(", ")].filter(Boolean).join("; ")],
    ["Days", `${p.startsOn} to ${p.endsOn ?? "no end"}`],
    ["Uses in all", p.maxUses === null ? "No limit" : String(p.maxUses)],
    ["Uses per reader", p.maxUsesPerReader === null ? "No limit" : String(p.maxUsesPerReader)],
  ],
});

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.offers");
  const code = codeParam(args.params.code);
  const form = await readForm(args.request);
  const db = await requestContext(args).db();
  const intent = form.get("intent");
  if (intent === "disable" || intent === "enable") {
    const done = await setPromoDisabled(db, deskEditor(staff), code, intent === "disable", new Date());
    if (!done.ok) notFound();
    return redirect(`/desk/offers/promo-codes/${code}?saved=${intent}d`, 303);
  }
  const submission = parseWithZod(form, { schema: promoEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await savePromo(db, deskEditor(staff), code, submission.value, new Date());
  if (result.ok) return redirect(`/desk/offers/promo-codes/${code}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleSave("promo code", result.current)] }, 409, { saved: savedVersion(result.current) });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Promo code ${args.data.promo.code}` : "Promo code");

export default function DeskPromo() {
  const { promo, products, uses, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-promo", loadSchema, actionData?.result, {
    description: promo.description,
    percentOff: promo.percentOff === null ? "" : String(promo.percentOff),
    amountOff: promo.amountOffCents === null ? "" : (promo.amountOffCents / 100).toFixed(2),
    productType: promo.productType ?? "",
    startsOn: promo.startsOn,
    endsOn: promo.endsOn ?? "",
    maxUses: promo.maxUses === null ? "" : String(promo.maxUses),
    maxUsesPerReader: promo.maxUsesPerReader === null ? "" : String(promo.maxUsesPerReader),
  });
  const disabled = promo.disabledAt !== null;
  return (
    <DeskPage title={`Promo code ${promo.code}`}>
      <p className={css.muted}>
        <Link to="/desk/offers">All offers</Link> · {promo.stateName} · {promo.gives} · used by {promo.standingUses}{" "}
        {promo.standingUses === 1 ? "order" : "orders"}
        {promo.maxUses === null ? "" : ` of ${promo.maxUses}`}
      </p>
      <Form method="post" className={forms.actions}>
        <input type="hidden" name="intent" value={disabled ? "enable" : "disable"} />
        <button type="submit" className={forms.secondaryButton}>
          {disabled ? "Enable the promo code again" : "Disable the promo code"}
        </button>
        <span className={forms.hint}>
          {disabled
            ? `Disabled at ${deskTime(promo.disabledAt!)}: shoppers are told it is no longer available.`
            : "Shoppers are then told it is no longer available; orders that used it keep their discount."}
        </span>
      </Form>
      <CatalogueEditor
        noun="promo code"
        saved={saved}
        mayEdit
        stale={stale}
        version={promo.version}
        spec={spec}
        button="Save the promo code"
        about={
          <RowFacts
            title="About this promo code"
            facts={[
              ["Version", String(promo.version)],
              ["Last saved", promo.updatedAt ? `${promo.updatedAt} by ${promo.updatedBy}` : "As the seed content made it"],
            ]}
          />
        }
      >
        <PromoFields fields={fields} products={products} chosenProducts={promo.products.map((p) => p.id)} />
      </CatalogueEditor>
      <OfferUses uses={uses.shown} total={uses.total} noun="promo code" />
    </DeskPage>
  );
}
