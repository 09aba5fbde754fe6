import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { mayAct } from "~/server/desk/roles";
import { CARRIERS, carrierName, trackingUrl } from "~/server/store/fulfilment/carriers";
import { deskOrder, type DeskOrderLine } from "~/server/store/fulfilment/desk-orders";
import { REFUND_LABELS, STAGE_LABELS } from "~/server/store/fulfilment/lifecycle";
import { fulfilLines, markDelivered } from "~/server/store/fulfilment/shipments";
import { issueIdempotencyKey } from "~/server/store/order-submit";
import { cancelPaidOrder, refundOrder } from "~/server/store/refunds/refunds";
import { addressLines } from "~/shared/address";
import { formatUsd } from "~/shared/money";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary, type SummaryItem } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import {
  cancelSchema,
  CARRIER_OTHER,
  deliverSchema,
  FULFIL_PROBLEMS,
  fulfilSchema,
  REFUND_PROBLEMS,
  refundQuantities,
  refundSchema,
} from "~/app/lib/desk/order-forms.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";
import { mailOrderUpdates, payments } from "~/app/lib/store/payments.server";

// One store order at the desk (ADR 086): its lines, payment, shipments, refunds and the mail sent
// about it, with forms to dispatch print lines (store), mark a shipment delivered, cancel a paid
// order with a full refund, and refund chosen lines (store and service). Customer service's reader
// pages link here by order number.

const DONE: Record<string, string> = {
  dispatched: "Dispatched. The buyer has been mailed the tracking details.",
  delivered: "Marked delivered.",
  cancelled: "Order cancelled and refunded in full. The buyer has been mailed a credit note.",
  refunded: "Refunded. The buyer has been mailed a credit note.",
  pending: "Refund asked of the payment provider: it completes, and the buyer gets the credit note, when the provider confirms it.",
};

type Failure = { form: "fulfil" | "refund" | "cancel"; errors: SummaryItem[] };

const failed = (form: Failure["form"], errors: SummaryItem[], status: number) => data({ failed: true, form, errors }, { status });

const summaryOf = (error: Record<string, string[] | null> | null | undefined, ids: Record<string, string>): SummaryItem[] =>
  Object.entries(error ?? {}).flatMap(([name, messages]) =>
    (messages ?? []).map((message) => ({ fieldId: ids[name.replace(/\[\d+\]$/, "")], message })),
  );

async function orderFor(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const database = await requestContext(args).db();
  const found = await deskOrder(database, args.params.orderNumber ?? "");
  return found ? { database, ...found } : notFound();
}

/** What the desk says of a pre-ordered line (ADR 092): waiting for its date, declined on it, or released. */
function preorderNote(l: DeskOrderLine): { text: string; declined: boolean } | null {
  if (!l.preorder) return null;
  const charge =
    l.charge_cents === null
      ? ""
      : l.charged_at
        ? `; charged ${formatUsd(l.charge_cents)} ${deskTime(l.charged_at)}`
        : `; charged when it ships (${formatUsd(l.charge_cents)})`;
  switch (l.preorder) {
    case "awaiting":
      return { text: `Pre-order, awaiting its date: available ${l.available_date}${charge}`, declined: false };
    case "declined":
      return {
        text: `Pre-order: the card was declined ${deskTime(l.charge_failed_at!)}; the buyer was asked to pay another way`,
        declined: true,
      };
    case "released":
      return { text: `Pre-order, released ${deskTime(l.released_at!)}${charge}`, declined: false };
  }
}

export async function loader(args: LoaderFunctionArgs) {
  const staff = await requireDesk(args, "orders.list");
  const { order, row, lines, shipments, refunds, stage, refundState } = await orderFor(args);
  const titleOf = (position: number) => lines.find((l) => l.position === position)?.title ?? `Line ${position}`;
  const mails = [
    ...(row.confirmation_sent_at ? [{ at: row.confirmation_sent_at, what: "Order confirmation" }] : []),
    ...shipments
      .filter((s) => s.mailSentAt)
      .map((s) => ({ at: s.mailSentAt!, what: `Dispatch notice (${carrierName(s.carrier)} ${s.trackingNumber})` })),
    ...refunds.filter((r) => r.mailSentAt).map((r) => ({ at: r.mailSentAt!, what: `Refund receipt with credit note ${r.creditNote}` })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const done = new URL(args.request.url).searchParams.get("done");
  return {
    number: order.number,
    placed: deskTime(order.createdAt),
    // A buyer who deleted their account leaves no address (ADR 089).
    email: order.email || `${order.buyerName ?? "a buyer"} (account deleted)`,
    kind: order.kind,
    state: [STAGE_LABELS[stage], REFUND_LABELS[refundState]].filter(Boolean).join(", "),
    address: order.address ? addressLines(order.address) : null,
    lines: lines.map((l) => ({
      position: l.position,
      title: l.title,
      format: l.format,
      quantity: l.quantity,
      total: formatUsd(l.line_total_cents),
      ships: l.ships,
      fulfilled: l.fulfilled_at ? deskTime(l.fulfilled_at) : null,
      refunded: l.refunded_quantity,
      refundable: l.refundable,
      dispatchable: l.dispatchable,
      preorder: preorderNote(l),
    })),
    payment: {
      provider: row.provider ?? "none",
      paid: row.paid_at ? deskTime(row.paid_at) : null,
      total: formatUsd(row.total_cents),
      refunded: formatUsd(row.refunded_cents),
      breakdown: `Subtotal ${formatUsd(row.subtotal_cents)}, discount ${formatUsd(row.discount_cents)}${row.promo_code ? ` (${row.promo_code})` : ""}, tax ${formatUsd(row.tax_cents)}, shipping ${formatUsd(row.shipping_cents)}`,
    },
    shipments: shipments.map((s) => ({
      id: s.id,
      carrier: carrierName(s.carrier),
      trackingNumber: s.trackingNumber,
      trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
      shipped: `${deskTime(s.shippedAt)} by ${s.shippedBy}`,
      delivered: s.deliveredAt ? deskTime(s.deliveredAt) : null,
      lines: s.positions.map(titleOf).join(", "),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      at: deskTime(r.createdAt),
      by: r.requestedBy,
      amount: formatUsd(r.amountCents),
      status:
        r.status === "succeeded" ? "Refunded" : r.status === "pending" ? "Awaiting the provider" : `Failed: ${r.failure ?? "refused"}`,
      creditNote: r.creditNote,
      reason: r.reason,
      lines: r.lines.map((l) => `${l.quantity} × ${titleOf(l.position)}`).join(", "),
    })),
    mails,
    carriers: CARRIERS.map((c) => ({ id: c.id, name: c.name })),
    otherCarrier: CARRIER_OTHER,
    may: {
      fulfil: mayAct(staff.roles, "orders.fulfil"),
      refund: mayAct(staff.roles, "orders.refund"),
      cancel: mayAct(staff.roles, "orders.refund") && row.status === "paid" && !row.shipped_at,
    },
    tokens: { fulfil: issueIdempotencyKey(), refund: issueIdempotencyKey(), cancel: issueIdempotencyKey() },
    done: done && Object.hasOwn(DONE, done) ? DONE[done]! : null,
  };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "orders.list");
  const intent = (
    await args.request
      .clone()
      .formData()
      .catch(() => new FormData())
  ).get("intent");
  requireAction(staff, intent === "fulfil" || intent === "deliver" ? "orders.fulfil" : "orders.refund");
  const form = await readForm(args.request);
  const { database, order } = await orderFor(args);
  const actor = auditActor(staff);
  const here = `/desk/orders/${encodeURIComponent(order.number)}`;
  const now = new Date();
  switch (intent) {
    case "fulfil": {
      const submission = parseWithZod(form, { schema: fulfilSchema });
      if (submission.status !== "success")
        return failed(
          "fulfil",
          summaryOf(submission.error, {
            lines: "fulfil-lines",
            carrier: "fulfil-carrier",
            otherCarrier: "fulfil-other",
            trackingNumber: "fulfil-tracking",
            token: "",
          }),
          400,
        );
      const v = submission.value;
      const outcome = await fulfilLines(
        database,
        actor,
        order.id,
        {
          positions: v.lines,
          carrier: v.carrier === CARRIER_OTHER ? v.otherCarrier! : v.carrier,
          trackingNumber: v.trackingNumber,
          idempotencyKey: `desk:${v.token}`,
        },
        now,
      );
      if (!outcome.ok)
        return outcome.problem === "not-found" ? notFound() : failed("fulfil", [{ message: FULFIL_PROBLEMS[outcome.problem] }], 409);
      await mailOrderUpdates();
      return redirect(`${here}?done=dispatched`, 303);
    }
    case "deliver": {
      const submission = parseWithZod(form, { schema: deliverSchema });
      if (submission.status !== "success") notFound();
      const outcome = await markDelivered(database, actor, order.id, submission.value.shipment, now);
      if (!outcome.ok) notFound();
      return redirect(`${here}?done=delivered`, 303);
    }
    case "cancel":
    case "refund": {
      const submission = parseWithZod(form, { schema: intent === "cancel" ? cancelSchema : refundSchema });
      const quantities = refundQuantities(form);
      const errors = submission.status === "success" ? [] : summaryOf(submission.error, { reason: `${intent}-reason`, token: "" });
      if (intent === "refund" && quantities.unreadable)
        errors.push({ fieldId: "refund-lines", message: "Enter each quantity as a whole number." });
      else if (intent === "refund" && quantities.lines.length === 0)
        errors.push({ fieldId: "refund-lines", message: "Choose how many of at least one line to refund." });
      if (errors.length > 0 || submission.status !== "success") return failed(intent, errors, 400);
      const input = { reason: submission.value.reason, idempotencyKey: `desk:${submission.value.token}` };
      const provider = await payments();
      const outcome =
        intent === "cancel"
          ? await cancelPaidOrder(database, provider, actor, order.id, input, now)
          : await refundOrder(database, provider, actor, order.id, { ...input, lines: quantities.lines }, now);
      if (!outcome.ok) {
        const [status, message] = REFUND_PROBLEMS[outcome.problem];
        return status === 404 ? notFound() : failed(intent, [{ message }], status);
      }
      await mailOrderUpdates();
      return redirect(`${here}?done=${outcome.status === "pending" ? "pending" : intent === "cancel" ? "cancelled" : "refunded"}`, 303);
    }
    default:
      notFound();
  }
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Order ${args.data.number}` : "Order");

export default function DeskOrder() {
  const page = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
  const errorsFor = (form: Failure["form"]) => (failure?.form === form ? failure.errors : []);
  const dispatchable = page.lines.filter((l) => l.dispatchable);
  const refundable = page.lines.filter((l) => l.refundable > 0);
  return (
    <DeskPage title={`Order ${page.number}`}>
      <p className={css.muted}>
        <Link to="/desk/orders">All orders</Link> · placed {page.placed} by {page.email} · <strong>{page.state}</strong>
        {page.kind === "voucher" ? " · redeemed with a voucher" : null}
      </p>
      {page.done ? (
        <p className={forms.success} role="status">
          {page.done}
        </p>
      ) : null}
      <ErrorSummary items={failure?.errors ?? []} />

      <section aria-labelledby="lines-heading" className={prose.section}>
        <h2 id="lines-heading">Lines</h2>
        <table className={css.table}>
          <caption className="visually-hidden">Lines of the order</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Quantity</th>
              <th scope="col">Total</th>
              <th scope="col">Delivery</th>
              <th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {page.lines.map((l) => (
              <tr key={l.position}>
                <td data-label="Item">
                  {l.title} ({l.format})
                  {l.preorder ? (
                    <>
                      <br />
                      <span className={l.preorder.declined ? css.alert : css.muted}>{l.preorder.text}</span>
                    </>
                  ) : null}
                </td>
                <td data-label="Quantity">{l.quantity}</td>
                <td data-label="Total">{l.total}</td>
                <td data-label="Delivery">
                  {l.ships ? "By post" : "Download"}: {l.fulfilled ? `fulfilled ${l.fulfilled}` : "not yet"}
                </td>
                <td data-label="Refunded">{l.refunded > 0 ? `${l.refunded} of ${l.quantity}` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.address ? <p>Ship to: {page.address.join(", ")}</p> : null}
      </section>

      <section aria-labelledby="payment-heading" className={prose.section}>
        <h2 id="payment-heading">Payment</h2>
        <p>
          {page.payment.paid ? `Paid ${page.payment.total} on ${page.payment.paid} through ${page.payment.provider}.` : "Not paid."}{" "}
          Refunded: {page.payment.refunded}.
        </p>
        <p className={css.muted}>{page.payment.breakdown}</p>
      </section>

      <section aria-labelledby="shipments-heading" className={prose.section}>
        <h2 id="shipments-heading">Shipments</h2>
        {page.shipments.length === 0 ? <p>Nothing dispatched.</p> : null}
        {page.shipments.map((s) => (
          <div key={s.id}>
            <p>
              {s.lines}: {s.carrier} {s.trackingUrl ? <a href={s.trackingUrl}>{s.trackingNumber}</a> : s.trackingNumber}, dispatched{" "}
              {s.shipped}. {s.delivered ? `Delivered ${s.delivered}.` : null}
            </p>
            {!s.delivered && page.may.fulfil ? (
              <Form method="post">
                <input type="hidden" name="intent" value="deliver" />
                <input type="hidden" name="shipment" value={s.id} />
                <button type="submit" className={forms.secondaryButton}>
                  Mark delivered<span className="visually-hidden"> ({s.trackingNumber})</span>
                </button>
              </Form>
            ) : null}
          </div>
        ))}
        {page.may.fulfil && dispatchable.length > 0 ? (
          <Form method="post" className={forms.form} aria-labelledby="fulfil-heading" noValidate>
            <h3 id="fulfil-heading">Dispatch with tracking</h3>
            <input type="hidden" name="intent" value="fulfil" />
            <input type="hidden" name="token" value={page.tokens.fulfil} />
            {errorsFor("fulfil").length > 0 ? (
              <p className={forms.formMessage}>
                {errorsFor("fulfil")
                  .map((e) => e.message)
                  .join(" ")}
              </p>
            ) : null}
            <fieldset className={css.fieldset} id="fulfil-lines">
              <legend>Lines in this parcel</legend>
              {dispatchable.map((l) => (
                <label key={l.position} className={forms.checkbox}>
                  <input type="checkbox" name="lines" value={l.position} defaultChecked /> {l.quantity} × {l.title} ({l.format})
                </label>
              ))}
            </fieldset>
            <div className={forms.field}>
              <label className={forms.label} htmlFor="fulfil-carrier">
                Carrier
              </label>
              <select id="fulfil-carrier" name="carrier" className={forms.input} defaultValue="">
                <option value="">Choose…</option>
                {page.carriers.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
                <option value={page.otherCarrier}>Another carrier</option>
              </select>
            </div>
            <div className={forms.field}>
              <label className={forms.label} htmlFor="fulfil-other">
                Another carrier&apos;s name (if not listed)
              </label>
              <input id="fulfil-other" name="otherCarrier" className={forms.input} maxLength={60} />
            </div>
            <div className={forms.field}>
              <label className={forms.label} htmlFor="fulfil-tracking">
                Tracking number
              </label>
              <input id="fulfil-tracking" name="trackingNumber" className={forms.input} maxLength={40} autoComplete="off" />
            </div>
            <div className={forms.actions}>
              <button type="submit" className={primaryButton}>
                Dispatch and mail the buyer
              </button>
            </div>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="refunds-heading" className={prose.section}>
        <h2 id="refunds-heading">Refunds</h2>
        {page.refunds.length === 0 ? <p>No refunds.</p> : null}
        {page.refunds.length > 0 ? (
          <table className={css.table}>
            <caption className="visually-hidden">Refunds of the order</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Lines</th>
                <th scope="col">Amount</th>
                <th scope="col">State</th>
                <th scope="col">Credit note</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {page.refunds.map((r) => (
                <tr key={r.id}>
                  <td data-label="When">{r.at}</td>
                  <td data-label="Who">{r.by}</td>
                  <td data-label="Lines">{r.lines}</td>
                  <td data-label="Amount">{r.amount}</td>
                  <td data-label="State">{r.status}</td>
                  <td data-label="Credit note">{r.creditNote ?? "—"}</td>
                  <td data-label="Reason">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {page.may.refund && refundable.length > 0 ? (
          <Form method="post" className={forms.form} aria-labelledby="refund-heading" noValidate>
            <h3 id="refund-heading">Refund lines</h3>
            <input type="hidden" name="intent" value="refund" />
            <input type="hidden" name="token" value={page.tokens.refund} />
            <fieldset className={css.fieldset} id="refund-lines">
              <legend>How many of each line to refund (the last refund adds the shipping)</legend>
              {refundable.map((l) => (
                <div key={l.position} className={forms.field}>
                  <label className={forms.label} htmlFor={`refund-qty-${l.position}`}>
                    {l.title} ({l.format}), up to {l.refundable}
                  </label>
                  <input
                    id={`refund-qty-${l.position}`}
                    name={`qty-${l.position}`}
                    type="number"
                    min={0}
                    max={l.refundable}
                    defaultValue={0}
                    className={forms.input}
                  />
                </div>
              ))}
            </fieldset>
            <div className={forms.field}>
              <label className={forms.label} htmlFor="refund-reason">
                Reason
              </label>
              <textarea id="refund-reason" name="reason" className={forms.textarea} maxLength={500} rows={2} />
            </div>
            <div className={forms.actions}>
              <button type="submit" className={primaryButton}>
                Refund and mail a credit note
              </button>
            </div>
          </Form>
        ) : null}
        {page.may.cancel ? (
          <Form method="post" className={forms.form} aria-labelledby="cancel-heading" noValidate>
            <h3 id="cancel-heading">Cancel the order</h3>
            <p>Nothing has been dispatched: the order is cancelled and everything paid is refunded.</p>
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="token" value={page.tokens.cancel} />
            <div className={forms.field}>
              <label className={forms.label} htmlFor="cancel-reason">
                Reason
              </label>
              <textarea id="cancel-reason" name="reason" className={forms.textarea} maxLength={500} rows={2} />
            </div>
            <div className={forms.actions}>
              <button type="submit" className={forms.secondaryButton}>
                Cancel with a full refund
              </button>
            </div>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="mail-heading" className={prose.section}>
        <h2 id="mail-heading">Mail sent</h2>
        {page.mails.length === 0 ? <p>None yet.</p> : null}
        <ul>
          {page.mails.map((m) => (
            <li key={`${m.at}${m.what}`}>
              {deskTime(m.at)}: {m.what}
            </li>
          ))}
        </ul>
      </section>
    </DeskPage>
  );
}
