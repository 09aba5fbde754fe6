import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AUDIT_ACTIONS, auditActors, auditPage, isAuditAction, type AuditFilter } from "~/server/desk/audit";
import { Pagination } from "~/app/components/Pagination";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// The audit log (ADR 073), for admins: newest first, filtered by actor, action and a range of
// days (UTC), paged with plain links that keep the filter.

const PAGE_SIZE = 25;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const querySchema = z.object({
  actor: z.string().max(255).optional(),
  action: z.string().max(64).optional(),
  from: z.string().regex(DAY).optional(),
  to: z.string().regex(DAY).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

const BAD_FILTER = "Some of the filter could not be read and was left out: dates are days such as 2026-05-14.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "audit.read");
  const query = new URL(request.url).searchParams;
  const raw = Object.fromEntries([...query].filter(([, value]) => value !== ""));
  const parsed = querySchema.safeParse(raw);
  const wanted = parsed.success ? parsed.data : {};
  const valid = (day: string | undefined) => (day && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : undefined);
  const from = valid(wanted.from);
  const to = valid(wanted.to);
  const filter: AuditFilter = {
    actor: wanted.actor,
    action: isAuditAction(wanted.action) ? wanted.action : undefined,
    from: from && `${from}T00:00:00.000Z`,
    until: to && `${to}T23:59:59.999Z`,
  };
  const page = wanted.page ?? 1;
  const database = await requestContext({ request, context }).db();
  const [{ rows, total }, actors] = await Promise.all([auditPage(database, filter, page, PAGE_SIZE), auditActors(database)]);
  return {
    filter: { actor: filter.actor ?? "", action: filter.action ?? "", from: from ?? "", to: to ?? "" },
    problem: parsed.success && (!wanted.from || from) && (!wanted.to || to) && (!wanted.action || filter.action) ? null : BAD_FILTER,
    actors,
    actions: Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label })),
    rows: rows.map((row) => ({
      id: row.id,
      at: deskTime(row.at),
      actor: row.actor,
      action: AUDIT_ACTIONS[row.action] ?? row.action,
      subject: row.subject,
      before: row.before === null ? "—" : JSON.stringify(row.before),
      after: row.after === null ? "—" : JSON.stringify(row.after),
    })),
    page,
    lastPage: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "audit.read");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Audit log");

export default function DeskAudit() {
  const { filter, problem, actors, actions, rows, page, lastPage, total } = useLoaderData<typeof loader>();
  const href = (to: number) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
    if (to > 1) query.set("page", String(to));
    const search = query.toString();
    return search ? `/desk/audit?${search}` : "/desk/audit";
  };
  return (
    <DeskPage title="Audit log">
      <Form method="get" className={css.filters} aria-label="Filter the audit log">
        <div className={forms.field}>
          <label className={forms.label} htmlFor="audit-actor">
            Who
          </label>
          <select id="audit-actor" name="actor" className={forms.input} defaultValue={filter.actor}>
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor} value={actor}>
                {actor}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="audit-action">
            What
          </label>
          <select id="audit-action" name="action" className={forms.input} defaultValue={filter.action}>
            <option value="">Any action</option>
            {actions.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="audit-from">
            From (UTC)
          </label>
          <input id="audit-from" name="from" type="date" className={forms.input} defaultValue={filter.from} />
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="audit-to">
            To (UTC)
          </label>
          <input id="audit-to" name="to" type="date" className={forms.input} defaultValue={filter.to} />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Filter
          </button>
          <Link to="/desk/audit">Clear</Link>
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        {total === 0 ? "No entries." : `${total} ${total === 1 ? "entry" : "entries"}, newest first. Page ${page} of ${lastPage}.`}
      </p>
      {rows.length > 0 ? (
        <table className={css.table}>
          <caption className="visually-hidden">Audit log entries</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">About</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td data-label="When">{row.at}</td>
                <td data-label="Who">{row.actor}</td>
                <td data-label="What">{row.action}</td>
                <td data-label="About">{row.subject}</td>
                <td data-label="Before">
                  <pre className={css.change}>{row.before}</pre>
                </td>
                <td data-label="After">
                  <pre className={css.change}>{row.after}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={lastPage} href={href} label="Audit log pages" />
    </DeskPage>
  );
}
