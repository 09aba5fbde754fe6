import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { enterDesk } from "~/server/desk/staff";
import { DoorCodeForm } from "~/app/components/desk/CodeForm";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as prose from "~/app/components/prose.css";
import { auditActor, deskReturnPath, requireStaff } from "~/app/lib/desk/access.server";
import { codeSchema } from "~/app/lib/desk/desk-forms";
import { deskMeta } from "~/app/lib/desk/meta";
import { checkDoorCode } from "~/app/lib/desk/second-factor.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// The desk's door (ADR 072): a signed-in staff member enters a code from their authenticator
// app, or a recovery code, and their session is raised to the desk for 12 hours.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff({ request, context });
  const returnTo = deskReturnPath(new URL(request.url).searchParams.get("redirectTo"));
  if (staff.deskSessionEnds) throw redirect(returnTo);
  return { enrolled: staff.enrolled, returnTo, email: staff.user.email };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff({ request, context });
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: codeSchema });
  if (submission.status !== "success") return rejectForm(submission);
  if (staff.deskSessionEnds) return redirect(deskReturnPath(submission.value.redirectTo), 303);
  if (!staff.enrolled) return rejectForm(submission, { formErrors: [NOT_ENROLLED] }, 409);
  const checked = await checkDoorCode({ request, context }, staff, submission.value.code);
  if (!checked.ok) return rejectForm(submission, { fieldErrors: { code: [checked.message] } }, checked.status);
  const asker = requestContext({ request, context });
  await enterDesk(await asker.db(), (await asker.sessionToken())!, auditActor(staff), checked.kind, new Date());
  return redirect(deskReturnPath(submission.value.redirectTo), 303);
}

const NOT_ENROLLED =
  "You have not set up a second factor yet. Open the enrolment link an admin gave you; if it has expired, ask an admin for a new one.";

export const meta: MetaFunction = (args) => deskMeta(args, "Enter the desk");

export default function DeskVerify() {
  const { enrolled, returnTo, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title="Enter the desk" door>
      <div className={prose.narrow}>
        <p>
          Signed in as {email}. The desk asks for your second factor as well as your password; once you are in, it lets you stay for 12
          hours.
        </p>
        {enrolled ? <DoorCodeForm redirectTo={returnTo} result={actionData?.result} /> : <p className={prose.notice}>{NOT_ENROLLED}</p>}
        <p>
          <Link to="/">Back to the site</Link>
        </p>
      </div>
    </DeskPage>
  );
}
