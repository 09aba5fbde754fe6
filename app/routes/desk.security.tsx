import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { renewRecoveryCodes, unusedRecoveryCodes } from "~/server/desk/second-factor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// A staff member's own second factor: how many recovery codes are left, and a new set (shown
// once, here, right after enrolment or after asking for them).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "desk.enter");
  const [{ flash, setCookie }, unused] = await Promise.all([
    takeDeskFlash(request, staff.user.id),
    unusedRecoveryCodes(await requestContext({ request, context }).db(), staff.user.id),
  ]);
  const codes = flash?.kind === "recovery-codes" ? flash.codes : null;
  return data({ codes, unused }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "desk.enter");
  const form = await readForm(request);
  if (form.get("intent") !== "recovery-codes") notFound();
  const codes = await renewRecoveryCodes(await requestContext({ request, context }).db(), auditActor(staff), new Date());
  const setCookie = await setDeskFlash(staff.user.id, { kind: "recovery-codes", codes });
  return redirect("/desk/security", { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction = (args) => deskMeta(args, "Your second factor");

export default function DeskSecurity() {
  const { codes, unused } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Your second factor">
      <div className={prose.narrow}>
        {codes ? (
          <section aria-labelledby="codes-heading" className={prose.notice}>
            <h2 id="codes-heading">Your recovery codes</h2>
            <p>
              Keep these somewhere safe, away from your phone. Each lets you into the desk once without your authenticator app. They are
              shown only now: this page will not show them again.
            </p>
            <ul className={css.codes}>
              {codes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <p>
          You enter the desk with your password and a code from your authenticator app. You have {unused} unused recovery{" "}
          {unused === 1 ? "code" : "codes"}.
        </p>
        <Form method="post" className={forms.form}>
          <input type="hidden" name="intent" value="recovery-codes" />
          <p className={css.muted}>New codes replace all of your old ones, used or not.</p>
          <div className={forms.actions}>
            <button type="submit" className={forms.secondaryButton}>
              Make new recovery codes
            </button>
          </div>
        </Form>
      </div>
    </DeskPage>
  );
}
