import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { mayAct } from "~/server/desk/roles";
import { enrolmentUrl, ENROLMENT_LINK_HOURS } from "~/server/desk/second-factor";
import { addStaff, listStaff } from "~/server/desk/staff";
import { ROLE_NAMES } from "~/shared/staff-roles";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { EnrolmentLinkNotice } from "~/app/components/desk/EnrolmentLinkNotice";
import { RolesFieldset } from "~/app/components/desk/RolesFieldset";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { addStaffSchema } from "~/app/lib/desk/desk-forms";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// Staff and their roles (admins): the list, and adding a reader by e-mail, which makes them a
// single-use enrolment link shown once on this page.

const loadAddSchema: SchemaLoader<typeof addStaffSchema> = () => import("~/app/lib/desk/desk-forms").then((m) => m.addStaffSchema);

const NO_ACCOUNT = "No reader account has this address. Staff register as readers first (at /register); then add them here.";
const NOT_ACTIVE = "This account is restricted, so it cannot be given a role.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "staff.list");
  const [members, { flash, setCookie }] = await Promise.all([
    listStaff(await requestContext({ request, context }).db()),
    takeDeskFlash(request, staff.user.id),
  ]);
  return data(
    {
      members: members.map((m) => ({ ...m, roles: m.roles.map((role) => ROLE_NAMES[role]) })),
      mayAdd: mayAct(staff.roles, "staff.add"),
      link: flash?.kind === "enrolment-link" ? flash : null,
      linkHours: ENROLMENT_LINK_HOURS,
      removed: new URL(request.url).searchParams.get("removed") === "1",
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "staff.list");
  const form = await readForm(request);
  if (form.get("intent") !== "add") notFound();
  requireAction(staff, "staff.add");
  const submission = parseWithZod(form, { schema: addStaffSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { email, roles } = submission.value;
  const added = await addStaff(await requestContext({ request, context }).db(), auditActor(staff), email, roles, new Date());
  if (!added.ok) return rejectForm(submission, { fieldErrors: { email: [added.reason === "not-active" ? NOT_ACTIVE : NO_ACCOUNT] } }, 422);
  const url = enrolmentUrl(config().siteUrl, added.token);
  const setCookie = await setDeskFlash(staff.user.id, { kind: "enrolment-link", email: added.user.email, url });
  return redirect("/desk/staff", { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction = (args) => deskMeta(args, "Staff and roles");

export default function DeskStaff() {
  const { members, mayAdd, link, linkHours, removed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title="Staff and roles">
      {link ? <EnrolmentLinkNotice email={link.email} url={link.url} hours={linkHours} /> : null}
      {removed ? (
        <p className={forms.success} role="status">
          Removed from staff. They keep their reader account; their roles, second factor and desk sessions are gone.
        </p>
      ) : null}
      <table className={css.table}>
        <caption className="visually-hidden">Staff</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Roles</th>
            <th scope="col">Second factor</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.userId}>
              <td data-label="Name">
                <Link to={`/desk/staff/${member.userId}`}>{member.name}</Link>
              </td>
              <td data-label="E-mail">{member.email}</td>
              <td data-label="Roles">{member.roles.join(", ")}</td>
              <td data-label="Second factor">{member.enrolled ? "Set up" : "Not set up yet"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {mayAdd ? <AddStaffForm linkHours={linkHours} result={actionData?.result} /> : null}
    </DeskPage>
  );
}

function AddStaffForm({ linkHours, result }: { linkHours: number; result: Parameters<typeof useSpecForm>[2] }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("add-staff", loadAddSchema, result);
  return (
    <section aria-labelledby="add-heading">
      <h2 id="add-heading">Add staff</h2>
      <p className={css.muted}>
        The reader&apos;s account must exist. They get a link to set up their second factor, valid for {linkHours} hours.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="intent" value="add" />
        <TextField meta={fields.email} label="Reader's e-mail address" type="email" autoComplete="off" />
        <RolesFieldset meta={fields.roles} checked={[]} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Add and make an enrolment link
          </button>
        </div>
      </Form>
    </section>
  );
}
