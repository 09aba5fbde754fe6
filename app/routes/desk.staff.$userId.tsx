import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { mayAct } from "~/server/desk/roles";
import { enrolmentUrl, ENROLMENT_LINK_HOURS } from "~/server/desk/second-factor";
import { changeRoles, newEnrolmentLink, removeStaff, staffListing } from "~/server/desk/staff";
import { ROLE_NAMES } from "~/shared/staff-roles";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { EnrolmentLinkNotice } from "~/app/components/desk/EnrolmentLinkNotice";
import { RolesFieldset } from "~/app/components/desk/RolesFieldset";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { changeRolesSchema } from "~/app/lib/desk/desk-forms";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One staff member (admins): change their roles, give them a new enrolment link, or remove
// them from staff. A change of roles or a removal ends their desk sessions at once.

const loadRolesSchema: SchemaLoader<typeof changeRolesSchema> = () => import("~/app/lib/desk/desk-forms").then((m) => m.changeRolesSchema);

const LAST_ADMIN = "The desk must keep at least one admin: make someone else an admin first.";
const UNCHANGED = "These are already their roles.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "staff.list");
  const member = await staffListing(await requestContext({ request, context }).db(), params.userId ?? "");
  if (!member) notFound();
  const { flash, setCookie } = await takeDeskFlash(request, staff.user.id);
  return data(
    {
      member,
      roleNames: member.roles.map((role) => ROLE_NAMES[role]),
      may: {
        changeRoles: mayAct(staff.roles, "staff.change-roles"),
        link: mayAct(staff.roles, "staff.add"),
        remove: mayAct(staff.roles, "staff.remove"),
      },
      link: flash?.kind === "enrolment-link" ? flash : null,
      linkHours: ENROLMENT_LINK_HOURS,
      saved: new URL(request.url).searchParams.get("saved") === "roles",
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "staff.list");
  const form = await readForm(request);
  const database = await requestContext({ request, context }).db();
  const userId = params.userId ?? "";
  const here = `/desk/staff/${encodeURIComponent(userId)}`;
  const actor = auditActor(staff);
  switch (form.get("intent")) {
    case "roles": {
      requireAction(staff, "staff.change-roles");
      const submission = parseWithZod(form, { schema: changeRolesSchema });
      if (submission.status !== "success") return rejectForm(submission);
      const changed = await changeRoles(database, actor, userId, submission.value.roles, new Date());
      if (changed.ok) return redirect(`${here}?saved=roles`, 303);
      if (changed.reason === "not-staff") notFound();
      return rejectForm(submission, { formErrors: [changed.reason === "last-admin" ? LAST_ADMIN : UNCHANGED] }, 409);
    }
    case "enrolment-link": {
      requireAction(staff, "staff.add");
      const made = await newEnrolmentLink(database, actor, userId, new Date());
      if (!made) notFound();
      const setCookie = await setDeskFlash(staff.user.id, {
        kind: "enrolment-link",
        email: made.email,
        url: enrolmentUrl(config().siteUrl, made.token),
      });
      return redirect(here, { status: 303, headers: { "Set-Cookie": setCookie } });
    }
    case "remove": {
      requireAction(staff, "staff.remove");
      const removed = await removeStaff(database, actor, userId, new Date());
      if (removed.ok) return redirect("/desk/staff?removed=1", 303);
      if (removed.reason === "not-staff") notFound();
      return data({ removeError: LAST_ADMIN }, { status: 409 });
    }
    default:
      notFound();
  }
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Staff: ${args.data.member.name}` : "Staff");

export default function DeskStaffMember() {
  const { member, roleNames, may, link, linkHours, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title={member.name}>
      <p className={css.muted}>
        <Link to="/desk/staff">All staff</Link> · {member.email} · {roleNames.join(", ")} · second factor{" "}
        {member.enrolled ? "set up" : "not set up yet"}
      </p>
      {link ? <EnrolmentLinkNotice email={link.email} url={link.url} hours={linkHours} /> : null}
      {saved ? (
        <p className={forms.success} role="status">
          Roles saved. Their desk sessions have ended: they enter a code again to come back.
        </p>
      ) : null}
      {may.changeRoles ? (
        <RolesForm
          key={roleNames.join()}
          roles={member.roles}
          result={actionData && "result" in actionData ? actionData.result : undefined}
        />
      ) : null}
      {may.link ? (
        <section aria-labelledby="link-heading" className={prose.section}>
          <h2 id="link-heading">New enrolment link</h2>
          <p>For a lost phone or an expired link. Their current second factor keeps working until the new link is used.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="enrolment-link" />
            <button type="submit" className={forms.secondaryButton}>
              Make a new enrolment link
            </button>
          </Form>
        </section>
      ) : null}
      {may.remove ? (
        <section aria-labelledby="remove-heading" className={prose.section}>
          <h2 id="remove-heading">Remove from staff</h2>
          <p>They keep their reader account; their roles, second factor and desk sessions go.</p>
          {actionData && "removeError" in actionData ? (
            <p className={forms.formMessage} role="alert">
              {actionData.removeError}
            </p>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <button type="submit" className={forms.secondaryButton}>
              Remove<span className="visually-hidden"> {member.name}</span> from staff
            </button>
          </Form>
        </section>
      ) : null}
    </DeskPage>
  );
}

function RolesForm({ roles, result }: { roles: readonly string[]; result: Parameters<typeof useSpecForm>[2] }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("change-roles", loadRolesSchema, result);
  const formError = form.errors?.[0];
  return (
    <section aria-labelledby="roles-heading" className={prose.section}>
      <h2 id="roles-heading">Change roles</h2>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="intent" value="roles" />
        {formError ? (
          <p className={forms.formMessage} id={form.errorId}>
            {formError}
          </p>
        ) : null}
        <RolesFieldset meta={fields.roles} checked={roles} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Save roles
          </button>
        </div>
      </Form>
    </section>
  );
}
