import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskAvailability, saveAvailability, schedulePrice, withdrawPrice, type DeskAvailability } from "~/server/desk/products";
import { formatUsd } from "~/shared/money";
import { availabilityEditSchema, priceChangeSchema } from "~/shared/product-fields";
import { AVAILABILITY_STATE_NAMES, LINE_TYPE_NAMES, PREORDER_CHARGE_NAMES } from "~/shared/product-vocabulary";
import { primaryButton } from "~/app/components/controls.css";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { AvailabilityFields } from "~/app/components/desk/store/AvailabilityFields";
import * as store from "~/app/components/desk/store/store-desk.css";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime, fileSize } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { idParam, savedNotice, staleSave } from "~/app/lib/desk/store-catalogue.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One format of a store product (ADR 091): its prices over time, with a form that schedules a new
// one from a moment on (now when left empty) and buttons that withdraw one not started yet; its
// fields (retiring it among them), saved over the version the form was opened at; and, for a
// digital format, the file buyers download. Each form posts here with its own intent.

const loadEdit: SchemaLoader<typeof availabilityEditSchema> = () => import("~/shared/product-fields").then((m) => m.availabilityEditSchema);
const loadPrice: SchemaLoader<typeof priceChangeSchema> = () => import("~/shared/product-fields").then((m) => m.priceChangeSchema);

const NOTICES = {
  created: "Format added. Shoppers see it at once.",
  saved: "Saved. Shoppers see the change at once.",
  unchanged: "Nothing had changed, so nothing was saved.",
  priced: "Price scheduled. Carts and new orders are priced by it from its time on; orders placed before keep their prices.",
  withdrawn: "The scheduled price is withdrawn.",
};

const UNKNOWN_INTENT = "That button is not one this page has: open the page again.";
const ALREADY_STARTED = "That price has started already, so it is part of the format's history and stays.";

function ids(args: LoaderFunctionArgs | ActionFunctionArgs) {
  return { productId: idParam(args.params.id), availabilityId: idParam(args.params.availabilityId) };
}

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  const { productId, availabilityId } = ids(args);
  const now = new Date();
  const format = await getDeskAvailability(await requestContext(args).db(), productId, availabilityId, now);
  if (!format) notFound();
  return {
    format: { ...format, updatedAt: format.updatedAt && deskTime(format.updatedAt) },
    prices: {
      now: formatUsd(format.prices.nowCents),
      since: format.prices.since ? deskTime(format.prices.since) : null,
      list: formatUsd(format.prices.listPriceCents),
      changes: format.prices.changes.map((c) => ({
        id: c.id,
        price: formatUsd(c.priceCents),
        startsAt: deskTime(c.startsAt),
        by: `${c.createdBy} at ${deskTime(c.createdAt)}`,
        state: c.inForce ? "In force" : c.started ? "Replaced" : "Scheduled",
        started: c.started,
      })),
    },
    file:
      format.file &&
      `Uploaded: ${format.file.extension.toUpperCase()}, ${fileSize(format.file.bytes)}, by ${format.file.uploadedBy} at ${deskTime(format.file.uploadedAt)}.`,
    // The earliest a schedule may name, for the time picker: this minute.
    earliest: now.toISOString().slice(0, 16),
    saved: savedNotice(args, NOTICES),
  };
}

const savedVersion = (format: DeskAvailability): SavedVersion => ({
  version: format.version,
  facts: [
    ["Format", format.format],
    ["Code", format.code],
    ["Line type", LINE_TYPE_NAMES[format.lineType]],
    ["Language", format.language],
    ["Status", AVAILABILITY_STATE_NAMES[format.state]],
    ["On sale from", format.availableDate ?? "—"],
    ["Pre-orders are charged", PREORDER_CHARGE_NAMES[format.preorderCharge]],
    ["Copyright permissions", format.permissionsAvailable ? "Sold" : "Not sold"],
    ["Volume pricing", format.volumePricing ? "Yes" : "No"],
  ],
});

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "catalogue.products");
  const { productId, availabilityId } = ids(args);
  const form = await readForm(args.request);
  const db = await requestContext(args).db();
  const editor = deskEditor(staff);
  const here = `/desk/products/${productId}/formats/${availabilityId}`;
  const intent = String(form.get("intent") ?? "save");
  if (intent === "price") {
    const submission = parseWithZod(form, { schema: priceChangeSchema });
    if (submission.status !== "success") return rejectForm(submission, {}, 400, { form: "price" as const });
    const done = await schedulePrice(
      db,
      editor,
      productId,
      availabilityId,
      { priceCents: submission.value.price, startsAt: submission.value.startsAt },
      new Date(),
    );
    if (done.ok) return redirect(`${here}?saved=priced`, 303);
    if (done.reason === "not-found") notFound();
    return rejectForm(submission, { fieldErrors: done.fields }, 422, { form: "price" as const });
  }
  if (intent === "withdraw") {
    const change = String(form.get("change") ?? "");
    if (!/^[0-9a-f-]{36}$/.test(change)) notFound();
    const done = await withdrawPrice(db, editor, productId, availabilityId, change, new Date());
    if (done.ok) return redirect(`${here}?saved=withdrawn`, 303);
    if (done.reason === "not-found") notFound();
    return data({ form: "withdraw" as const, message: ALREADY_STARTED }, { status: 409 });
  }
  const submission = parseWithZod(form, { schema: availabilityEditSchema });
  if (intent !== "save") return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await saveAvailability(db, editor, productId, availabilityId, submission.value, new Date());
  if (result.ok) return redirect(`${here}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleSave("format", result.current)] }, 409, { saved: savedVersion(result.current) });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `${args.data.format.format}: ${args.data.format.productTitle}` : "Format");

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function DeskFormat() {
  const { format, prices, file, earliest, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Which of the page's forms the answer is about: the price form's and the withdraw buttons' say so.
  const formOf: string = actionData && "form" in actionData ? String(actionData.form) : "save";
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const editResult = formOf === "save" && actionData && "result" in actionData ? actionData.result : undefined;
  const { fields, ...spec } = useSpecForm("edit-format", loadEdit, editResult, {
    format: format.format,
    code: format.code,
    lineType: format.lineType,
    language: format.language,
    status: format.state,
    availableDate: format.availableDate ?? "",
    preorderCharge: format.preorderCharge,
  });
  return (
    <DeskPage title={`${format.format}: ${format.productTitle}`}>
      <p className={css.muted}>
        <Link to={`/desk/products/${format.productId}`}>The product&apos;s details</Link> · <a href={format.path}>its page</a> ·{" "}
        {AVAILABILITY_STATE_NAMES[format.state]}
      </p>
      {saved && !actionData ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      <Prices
        prices={prices}
        earliest={earliest}
        result={formOf === "price" && actionData && "result" in actionData ? actionData.result : undefined}
        withdrawError={formOf === "withdraw" && actionData && "message" in actionData ? actionData.message : null}
      />
      <section aria-labelledby="format-fields-heading" className={store.section}>
        <h2 id="format-fields-heading">The format</h2>
        <CatalogueEditor
          noun="format"
          saved={null}
          mayEdit
          stale={stale}
          version={format.version}
          spec={spec}
          button="Save the format"
          about={
            <RowFacts
              title="About this format"
              facts={[
                ["Version", String(format.version)],
                ["Last saved", format.updatedAt ? `${format.updatedAt} by ${format.updatedBy}` : "As the seed content made it"],
                ["Retiring", "A retired format is no longer sold: its page says so, and orders of it keep their downloads."],
              ]}
            />
          }
        >
          <input type="hidden" name="intent" value="save" />
          <AvailabilityFields fields={fields} chosen={format} />
        </CatalogueEditor>
      </section>
      {format.digital ? (
        <section aria-labelledby="file-heading" className={store.section}>
          <h2 id="file-heading">Download file</h2>
          <p>{file ?? "None uploaded: buyers get a file made from the product's texts."}</p>
          <p>
            <Link to={`/desk/products/${format.productId}/formats/${format.id}/file`}>{file ? "Upload a new file" : "Upload a file"}</Link>
          </p>
        </section>
      ) : null}
    </DeskPage>
  );
}

function Prices({
  prices,
  earliest,
  result,
  withdrawError,
}: {
  prices: Loaded["prices"];
  earliest: string;
  result: Parameters<typeof useSpecForm>[2];
  withdrawError: string | null;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm("price", loadPrice, result);
  return (
    <section aria-labelledby="prices-heading" className={store.section}>
      <h2 id="prices-heading">Price</h2>
      <p>
        Price now: <strong>{prices.now}</strong>
        {prices.since ? ` (since ${prices.since})` : " (its list price)"}.
      </p>
      {withdrawError ? (
        <p className={forms.formMessage} role="alert">
          {withdrawError}
        </p>
      ) : null}
      {prices.changes.length > 0 ? (
        <table className={css.table}>
          <caption>Price changes, the earliest first (list price {prices.list})</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Price</th>
              <th scope="col">Scheduled by</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {prices.changes.map((c) => (
              <tr key={c.id}>
                <td data-label="From">{c.startsAt}</td>
                <td data-label="Price">{c.price}</td>
                <td data-label="Scheduled by">{c.by}</td>
                <td data-label="State">
                  {c.state}
                  {c.started ? null : (
                    <Form method="post" className={store.inlineForm}>
                      <input type="hidden" name="intent" value="withdraw" />
                      <input type="hidden" name="change" value={c.id} />{" "}
                      <button type="submit" className={forms.secondaryButton}>
                        Withdraw
                        <span className="visually-hidden">
                          {" "}
                          the price of {c.price} from {c.startsAt}
                        </span>
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="intent" value="price" />
        <TextField meta={fields.price} label="New price (US dollars)" autoComplete="off" width="medium" hint="Such as 29.00." />
        <div className={fields.startsAt.errors?.[0] ? `${forms.field} ${forms.withError}` : forms.field}>
          <label className={forms.label} htmlFor={fields.startsAt.id}>
            From (UTC, optional)
          </label>
          <span id={fields.startsAt.descriptionId} className={forms.hint}>
            A date and time in UTC. Left empty, the price starts now.
          </span>
          {fields.startsAt.errors?.[0] ? (
            <p id={fields.startsAt.errorId} className={forms.fieldError}>
              {fields.startsAt.errors[0]}
            </p>
          ) : null}
          <input
            id={fields.startsAt.id}
            name={fields.startsAt.name}
            type="datetime-local"
            min={earliest}
            defaultValue={typeof fields.startsAt.initialValue === "string" ? fields.startsAt.initialValue : ""}
            className={forms.input}
            aria-invalid={fields.startsAt.errors?.[0] ? true : undefined}
            aria-describedby={
              fields.startsAt.errors?.[0] ? `${fields.startsAt.errorId} ${fields.startsAt.descriptionId}` : fields.startsAt.descriptionId
            }
          />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Schedule the price
          </button>
        </div>
      </Form>
    </section>
  );
}
