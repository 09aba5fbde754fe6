import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { qrDrawing } from "~/server/desk/qr";
import { openEnrolment } from "~/server/desk/second-factor";
import { enterDesk } from "~/server/desk/staff";
import { otpauthUri } from "~/server/desk/totp";
import { EnrolCodeForm } from "~/app/components/desk/CodeForm";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { QrCode } from "~/app/components/desk/QrCode";
import * as css from "~/app/components/desk/desk.css";
import * as prose from "~/app/components/prose.css";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireStaff } from "~/app/lib/desk/access.server";
import { enrolCodeSchema } from "~/app/lib/desk/desk-forms";
import { setDeskFlash } from "~/app/lib/desk/flash.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { enrolWithCode } from "~/app/lib/desk/second-factor.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// Setting up a second factor from a single-use enrolment link (ADR 072). Like every /desk
// address it is the site's 404 unless the link is live; a live link asks its holder to sign in
// as the account it was made for, then shows the secret as a QR code and as text. A code from
// it completes the enrolment: the ten recovery codes are shown once, and the desk opens.

const enrolPath = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

async function liveEnrolment({ request, context }: RequestArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const enrolment = token ? await openEnrolment(await requestContext({ request, context }).db(), token, new Date()) : null;
  return enrolment && token ? { ...enrolment, token } : notFound();
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const enrolment = await liveEnrolment({ request, context });
  const user = await requestContext({ request, context }).user();
  if (!user) return { state: "sign-in" as const, signIn: `/sign-in?redirectTo=${encodeURIComponent(enrolPath(request))}` };
  if (user.id !== enrolment.userId) return { state: "other-account" as const };
  await requireStaff({ request, context });
  return {
    state: "enrol" as const,
    action: enrolPath(request),
    email: user.email,
    secret: enrolment.secret.replace(/(.{4})(?=.)/g, "$1 "),
    qr: qrDrawing(otpauthUri(enrolment.secret, SITE_NAME, user.email)),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const enrolment = await liveEnrolment({ request, context });
  const staff = await requireStaff({ request, context });
  if (staff.user.id !== enrolment.userId) notFound();
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: enrolCodeSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const done = await enrolWithCode({ request, context }, staff, enrolment.token, submission.value.code);
  if (!done.ok) {
    if ("dead" in done) notFound();
    return rejectForm(submission, { fieldErrors: { code: [done.message] } }, done.status);
  }
  const asker = requestContext({ request, context });
  await enterDesk(await asker.db(), (await asker.sessionToken())!, auditActor(staff), "enrolment", new Date());
  const setCookie = await setDeskFlash(staff.user.id, { kind: "recovery-codes", codes: done.recoveryCodes });
  return redirect("/desk/security", { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction = (args) => deskMeta(args, "Set up your second factor");

export default function DeskEnrol() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <DeskPage title="Set up your second factor" door>
      <div className={prose.narrow}>
        {page.state === "sign-in" ? (
          <p>
            This link sets up the second factor of a staff account. <Link to={page.signIn}>Sign in</Link> with that account&apos;s e-mail
            address and password first; you will come back here.
          </p>
        ) : page.state === "other-account" ? (
          <p>
            This link was made for another account. <Link to="/logout">Sign out</Link>, then open the link again and sign in as the account
            it was made for.
          </p>
        ) : (
          <>
            <p>
              Staff enter the desk with their password and a code from an authenticator app (such as Google Authenticator, Microsoft
              Authenticator or 1Password). Set one up for {page.email}:
            </p>
            <ol>
              <li>
                In your authenticator app, add an account, and scan this QR code:
                <QrCode size={page.qr.size} path={page.qr.path} label="QR code of your second factor's secret" />
              </li>
              <li>
                If you cannot scan it, type this key into the app instead (a time-based key):{" "}
                <strong className={css.secret}>{page.secret}</strong>
              </li>
              <li>Enter the code the app then shows.</li>
            </ol>
            <EnrolCodeForm action={page.action} result={actionData?.result} />
          </>
        )}
      </div>
    </DeskPage>
  );
}
