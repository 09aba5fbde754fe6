import { checkSecondFactor, completeEnrolment, type CodeKind } from "~/server/desk/second-factor";
import type { StaffMember } from "~/server/desk/staff";
import { formatWait, tooManyAttempts } from "~/app/lib/accounts/messages";
import { lockoutRules, rateLimit } from "~/app/lib/accounts/auth.server";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";
import { auditActor } from "./access.server";

// A staff member's codes, at the desk's door and at enrolment: the sign-in's rate limits
// (action "second-factor") and lockout (ADR 021), with messages of their own.

export type CodeProblem = { ok: false; status: number; message: string };

const wrongCode = (triesLeft: number) =>
  `That code is not right, or it has been used already. You have ${triesLeft} ${triesLeft === 1 ? "try" : "tries"} left.`;
const locked = (seconds: number) =>
  `Too many wrong codes. The desk is locked for your account: please wait ${formatWait(seconds)} and try again.`;

async function limited(args: RequestArgs, staffEmail: string): Promise<CodeProblem | null> {
  const limit = await rateLimit(args.request, args.context, "second-factor", staffEmail);
  return limit.allowed ? null : { ok: false, status: 429, message: tooManyAttempts(limit.retryAfterSeconds) };
}

/** Checks a code typed at the desk's door. */
export async function checkDoorCode(
  args: RequestArgs,
  staff: StaffMember,
  code: string,
): Promise<{ ok: true; kind: CodeKind } | CodeProblem> {
  const stopped = await limited(args, staff.user.email);
  if (stopped) return stopped;
  const checked = await checkSecondFactor(await requestContext(args).db(), staff.user.id, code, lockoutRules(), new Date());
  if (checked.ok) return { ok: true, kind: checked.value };
  return refusal(checked);
}

function refusal(check: { reason: "locked"; lockoutSeconds: number } | { reason: "invalid"; triesLeft: number }): CodeProblem {
  return check.reason === "locked"
    ? { ok: false, status: 423, message: locked(check.lockoutSeconds) }
    : { ok: false, status: 401, message: wrongCode(check.triesLeft) };
}

/** Completes an enrolment with a code from its secret; answers the new recovery codes, or `dead` when the link was used meanwhile. */
export async function enrolWithCode(
  args: RequestArgs,
  staff: StaffMember,
  token: string,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] } | CodeProblem | { ok: false; dead: true }> {
  const stopped = await limited(args, staff.user.email);
  if (stopped) return stopped;
  const done = await completeEnrolment(await requestContext(args).db(), token, auditActor(staff), code, lockoutRules(), new Date());
  if (done.ok) return { ok: true, recoveryCodes: done.value.recoveryCodes };
  return done.reason === "dead" ? { ok: false, dead: true } : refusal(done);
}
