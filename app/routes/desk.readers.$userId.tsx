import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { findUserById } from "~/server/accounts/users";
import { mayAct } from "~/server/desk/roles";
import { readerOverview } from "~/server/desk/service";
import { formatUsd } from "~/shared/money";
import { COMP_TIERS } from "~/shared/reader-service";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { DurationFields, FieldError, ServiceErrorSummary, ServiceForm, type ServiceReply } from "~/app/components/desk/service/ServiceForm";
import * as service from "~/app/components/desk/service/service.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { DONE, newFormKey, readerAction } from "~/app/lib/desk/readers.server";
import { readForm } from "~/app/lib/forms/guard.server";

// A reader's page for customer service (ADR 087): their account, sign-in failures and lockout,
// restriction, subscriptions and invoices, orders, print subscriptions, gift links, this month's
// meter and the mail sent to them, with the actions on each. Never a password hash, a token or
// more of a card than its brand and last four digits.

export async function loader(args: LoaderFunctionArgs) {
  const staff = await requireDesk(args, "readers.find");
  const c = config();
  const overview = await readerOverview(await requestContext(args).db(), args.params.userId ?? "", {
    meterLimit: c.METER_REGISTERED_LIMIT,
    giftsPerMonth: c.GIFTS_PER_MONTH,
  });
  if (!overview) notFound();
  const done = new URL(args.request.url).searchParams.get("done");
  return {
    overview,
    formKey: newFormKey(),
    done: done && Object.hasOwn(DONE, done) ? DONE[done]! : null,
    may: { act: mayAct(staff.roles, "readers.act"), grant: mayAct(staff.roles, "subscriptions.grant") },
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "readers.find");
  const form = await readForm(args.request);
  const db = await requestContext(args).db();
  const userId = args.params.userId ?? "";
  if (!(await findUserById(db, userId))) notFound();
  return readerAction(staff, db, userId, form);
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Reader: ${args.data.overview.account.email}` : "Reader");

const day = (iso: string) => iso.slice(0, 10);
const cardText = (card: { brand: string | null; last4: string } | null) => (card ? `${card.brand ?? "Card"} ending ${card.last4}` : "—");

export default function DeskReader() {
  const { overview, formKey, done, may, today } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const reply = (answer && typeof answer === "object" && "intent" in answer ? answer : null) as ServiceReply | null;
  const { account, signIn, subscriptions, invoices, orders, printRecords, gifts, meter, mail } = overview;
  const restricted = account.status === "restricted";
  const lockable = signIn !== null && (signIn.failures > 0 || signIn.locked);
  const paidOrders = orders.filter((o) => o.status === "paid");
  const canComp = !subscriptions.some((s) => s.kind !== "print" && s.status === "active" && s.givesAccess);
  const formProps = { formKey, reply };
  return (
    <DeskPage title={`${account.firstName} ${account.lastName}`.trim() || account.email}>
      <p className={css.muted}>
        <Link to="/desk/readers">Find readers</Link> · {account.email}
      </p>
      <ServiceErrorSummary reply={reply} />
      {done ? (
        <p className={forms.success} role="status">
          {done}
        </p>
      ) : null}

      <section aria-labelledby="account-heading" className={prose.section}>
        <h2 id="account-heading">Account</h2>
        <dl className={service.facts}>
          <dt>E-mail address</dt>
          <dd>{account.email}</dd>
          <dt>Name</dt>
          <dd>
            {account.firstName} {account.lastName}
            {account.displayName ? ` (shown as ${account.displayName})` : ""}
          </dd>
          <dt>Address verified</dt>
          <dd>{account.emailVerifiedAt ? `Yes, ${deskTime(account.emailVerifiedAt)}` : "No"}</dd>
          <dt>Created</dt>
          <dd>{deskTime(account.createdAt)}</dd>
          <dt>Last visit</dt>
          <dd>{account.lastVisitAt ? deskTime(account.lastVisitAt) : "—"}</dd>
          <dt>Status</dt>
          <dd>{restricted ? "Restricted: cannot sign in or reset the password" : "Open"}</dd>
          {account.staff ? (
            <>
              <dt>Staff</dt>
              <dd>Yes</dd>
            </>
          ) : null}
          <dt>Sign-in</dt>
          <dd>
            {signIn === null
              ? "No failed sign-ins since the last one that succeeded."
              : `${signIn.failures} failed ${signIn.failures === 1 ? "try" : "tries"} since the last lockout or sign-in; ${signIn.lockouts} lockout${signIn.lockouts === 1 ? "" : "s"} in the last day. `}
            {signIn?.locked && signIn.lockedUntil
              ? `Locked${signIn.hardLocked ? " for a day" : ""} until ${deskTime(signIn.lockedUntil)}.`
              : signIn
                ? "Not locked."
                : ""}
          </dd>
        </dl>
        {may.act ? (
          <div className={service.actions}>
            {lockable ? (
              <ServiceForm intent="unlock" submit="Unlock the account" {...formProps}>
                <p>Clears the failed sign-ins and any lockout, the day-long one too. The reader is mailed.</p>
              </ServiceForm>
            ) : null}
            {restricted ? (
              <ServiceForm intent="unrestrict" submit="Lift the restriction" {...formProps}>
                <p>They can sign in and reset their password again. The reader is mailed.</p>
              </ServiceForm>
            ) : account.staff ? null : (
              <ServiceForm intent="restrict" submit="Restrict the account" {...formProps}>
                <p>Signs them out everywhere; sign-in and password reset then refuse them with the restricted-user message.</p>
              </ServiceForm>
            )}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="subscriptions-heading" className={prose.section}>
        <h2 id="subscriptions-heading">Subscriptions</h2>
        {subscriptions.length === 0 ? (
          <p>No subscriptions.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Subscriptions</caption>
            <thead>
              <tr>
                <th scope="col">Tier</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">From</th>
                <th scope="col">Until</th>
                <th scope="col">Card</th>
                <th scope="col">Access now</th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.map((s) => (
                <tr key={s.id}>
                  <td data-label="Tier">{s.tier}</td>
                  <td data-label="Kind">
                    {s.kind === "print"
                      ? `Print (account ${s.accountNumber})`
                      : s.kind === "complimentary"
                        ? "Complimentary"
                        : `Web${s.planName ? `: ${s.planName}` : ""}`}
                  </td>
                  <td data-label="Status">{[s.status, s.billingStatus].filter(Boolean).join(", ")}</td>
                  <td data-label="From">{day(s.accessStart)}</td>
                  <td data-label="Until">{deskTime(s.accessEnd)}</td>
                  <td data-label="Card">{cardText(s.card)}</td>
                  <td data-label="Access now">{s.givesAccess ? "Yes" : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {may.grant ? (
          <div className={service.actions}>
            {subscriptions
              .filter((s) => s.extendable)
              .map((s) => (
                <ServiceForm
                  key={s.id}
                  intent="extend"
                  target={s.id}
                  hidden={{ subscription: s.id, accessEnd: s.accessEnd }}
                  submit="Extend the subscription"
                  {...formProps}
                >
                  <p>
                    {s.tier}
                    {s.kind === "complimentary" ? " (complimentary)" : ""}, until {deskTime(s.accessEnd)}.
                  </p>
                  <DurationFields reply={reply} intent="extend" target={s.id} />
                </ServiceForm>
              ))}
            {canComp ? (
              <ServiceForm intent="comp" submit="Grant a complimentary subscription" {...formProps}>
                <p>At no charge; it ends by itself at the end of the day chosen.</p>
                <div className={forms.field}>
                  <label className={forms.label} htmlFor="comp-tier">
                    Tier
                  </label>
                  <FieldError reply={reply} intent="comp" name="tier" />
                  <select id="comp-tier" name="tier" defaultValue="GOOD" className={forms.input}>
                    {Object.entries(COMP_TIERS).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className={forms.field}>
                  <label className={forms.label} htmlFor="comp-endsOn">
                    Ends on (YYYY-MM-DD)
                  </label>
                  <FieldError reply={reply} intent="comp" name="endsOn" />
                  <input
                    id="comp-endsOn"
                    name="endsOn"
                    type="date"
                    min={today}
                    required
                    className={`${forms.input} ${forms.inputWidth.medium}`}
                  />
                </div>
              </ServiceForm>
            ) : null}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="print-heading" className={prose.section}>
        <h2 id="print-heading">Print subscriptions</h2>
        {printRecords.length === 0 ? (
          <p>No print subscription under their address or linked to them.</p>
        ) : (
          <ul>
            {printRecords.map((p) => (
              <li key={p.accountNumber}>
                Account {p.accountNumber}, {p.subscriptionCode}, until {p.accessEnd}: {p.active ? "active" : "lapsed"},{" "}
                {p.linked ? "linked" : "not linked"}
              </li>
            ))}
          </ul>
        )}
        {may.act ? (
          <div className={service.actions}>
            <ServiceForm intent="link-print" submit="Link the print subscription" {...formProps}>
              <div className={forms.field}>
                <label className={forms.label} htmlFor="link-print-accountNumber">
                  Print account number
                </label>
                <FieldError reply={reply} intent="link-print" name="accountNumber" />
                <input id="link-print-accountNumber" name="accountNumber" required maxLength={32} className={forms.input} />
              </div>
            </ServiceForm>
            {printRecords
              .filter((p) => p.linked)
              .map((p) => (
                <ServiceForm
                  key={p.accountNumber}
                  intent="unlink-print"
                  target={p.accountNumber}
                  hidden={{ accountNumber: p.accountNumber }}
                  submit={`Unlink account ${p.accountNumber}`}
                  {...formProps}
                />
              ))}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="invoices-heading" className={prose.section}>
        <h2 id="invoices-heading">Invoices</h2>
        {invoices.length === 0 ? (
          <p>No invoices.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Invoices</caption>
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Kind</th>
                <th scope="col">Total</th>
                <th scope="col">Date</th>
                <th scope="col">Card</th>
                <th scope="col">Receipt mailed</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((i) => (
                <tr key={i.id}>
                  <td data-label="Invoice">{i.number}</td>
                  <td data-label="Kind">{i.kind}</td>
                  <td data-label="Total">{formatUsd(i.totalCents)}</td>
                  <td data-label="Date">{day(i.createdAt)}</td>
                  <td data-label="Card">{cardText(i.card)}</td>
                  <td data-label="Receipt mailed">{i.receiptSentAt ? deskTime(i.receiptSentAt) : "Not yet"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="orders-heading" className={prose.section}>
        <h2 id="orders-heading">Orders</h2>
        {orders.length === 0 ? (
          <p>No orders.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Orders</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col">Total</th>
                <th scope="col">Placed</th>
                <th scope="col">Case studies</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <td data-label="Order">
                    <Link to={`/desk/orders/${encodeURIComponent(o.number)}`}>{o.number}</Link>
                    {o.status === "paid" ? " (refunds on the order's page)" : ""}
                  </td>
                  <td data-label="Status">{o.status.replace(/_/g, " ")}</td>
                  <td data-label="Total">{formatUsd(o.totalCents)}</td>
                  <td data-label="Placed">{day(o.createdAt)}</td>
                  <td data-label="Case studies">
                    {o.caseStudies.length === 0
                      ? "—"
                      : o.caseStudies
                          .map((c) => `${c.title}: downloads until ${deskTime(c.expiresAt)}${c.extended ? " (extended)" : ""}`)
                          .join("; ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {may.act ? (
          <div className={service.actions}>
            {paidOrders.flatMap((o) =>
              o.caseStudies.map((c) => {
                const target = `${o.id}/${c.position}`;
                return (
                  <ServiceForm
                    key={target}
                    intent="extend-download"
                    target={target}
                    hidden={{ order: o.id, position: String(c.position), expiresAt: c.expiresAt }}
                    submit="Extend the downloads"
                    {...formProps}
                  >
                    <p>
                      {c.title} (order {o.number}): {c.expired ? "closed" : "open"} until {deskTime(c.expiresAt)}.
                    </p>
                    <DurationFields reply={reply} intent="extend-download" target={target} />
                  </ServiceForm>
                );
              }),
            )}
          </div>
        ) : null}
      </section>

      <section aria-labelledby="gifts-heading" className={prose.section}>
        <h2 id="gifts-heading">Gift links</h2>
        <p>{gifts.left} left to give this month.</p>
        {gifts.list.length === 0 ? (
          <p>No gift links given.</p>
        ) : (
          <ul>
            {gifts.list.map((g) => (
              <li key={g.id}>
                <a href={g.articleUrl}>{g.articleTitle}</a>, given {deskTime(g.createdAt)}
                {g.revoked ? " (revoked)" : ""}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="meter-heading" className={prose.section}>
        <h2 id="meter-heading">This month&apos;s meter</h2>
        <p>
          {meter.period}: {meter.count} of {meter.limit} free articles read.
        </p>
      </section>

      <section aria-labelledby="mail-heading" className={prose.section}>
        <h2 id="mail-heading">Mail sent</h2>
        {mail.length === 0 ? (
          <p>No mail logged to {account.email}.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Mail sent, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Subject</th>
              </tr>
            </thead>
            <tbody>
              {mail.map((m, index) => (
                <tr key={`${m.sentAt}-${index}`}>
                  <td data-label="Sent">{deskTime(m.sentAt)}</td>
                  <td data-label="Subject">{m.subject}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {may.act ? (
          <ServiceForm intent="resend" submit="Send it again" {...formProps}>
            <div className={forms.field}>
              <label className={forms.label} htmlFor="resend-mail">
                Mail
              </label>
              <FieldError reply={reply} intent="resend" name="mail" />
              <select id="resend-mail" name="mail" className={forms.input} defaultValue="">
                <option value="" disabled>
                  Choose a mail
                </option>
                {!account.emailVerifiedAt ? <option value="verification">Address verification link</option> : null}
                <option value="reset">Password reset link</option>
                {invoices.map((i) => (
                  <option key={i.id} value={`receipt:${i.id}`}>
                    Receipt {i.number}
                  </option>
                ))}
                {paidOrders.map((o) => (
                  <option key={o.id} value={`order:${o.id}`}>
                    Order {o.number}: confirmation and downloads
                  </option>
                ))}
              </select>
            </div>
          </ServiceForm>
        ) : null}
      </section>
    </DeskPage>
  );
}
