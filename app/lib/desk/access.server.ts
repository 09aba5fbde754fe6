import type { AuditActor } from "~/server/desk/audit";
import { mayAct, type DeskAction } from "~/server/desk/roles";
import type { StaffMember } from "~/server/desk/staff";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { redirect } from "~/app/lib/http/responses.server";

// Who may be at the desk (ADR 072). Anyone without a role, signed in or not, gets the site's
// ordinary 404 for every /desk address, GET or POST: the desk does not say it exists. A staff
// member without a live desk session is sent to enter their code; one whose roles do not allow
// the action gets 403 (they know the desk exists, so the refusal can say what it is). Actions
// check who is asking before they read the form, so that a cross-site or oversized post from
// anyone without a role meets the 404 too.

/** The site's ordinary 404 page. */
export function notFound(): never {
  throw new Response(null, { status: 404 });
}

/** The staff member asking, or the 404 for anyone else. */
export async function requireStaff(args: RequestArgs): Promise<StaffMember> {
  return (await requestContext(args).staff()) ?? notFound();
}

/** Where a staff member without a desk session enters their code, then comes back. */
export function verifyPath(request: Request): string {
  const url = new URL(request.url);
  return `/desk/verify?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** A staff member inside the desk who may take this action; every desk loader and action starts here. */
export async function requireDesk(args: RequestArgs, action: DeskAction): Promise<StaffMember> {
  const staff = await requireStaff(args);
  if (!staff.deskSessionEnds) throw redirect(verifyPath(args.request), 303);
  requireAction(staff, action);
  return staff;
}

/** The staff member as the audit log names them. */
export function auditActor(staff: StaffMember): AuditActor & { id: string } {
  return { id: staff.user.id, label: staff.user.email };
}

/** Where to go once inside: a desk page named by `redirectTo`, never the door or enrolment themselves; else the desk's home. */
export function deskReturnPath(value: string | null | undefined): string {
  const path = safeRedirectPath(value, "/desk");
  const { pathname } = new URL(path, "http://desk.invalid");
  return /^\/desk(?:\/|$)/.test(pathname) && !/^\/desk\/(?:verify|enrol)(?:\/|$)/.test(pathname) ? path : "/desk";
}

/** 403 unless the staff member's roles allow this action too (a page whose forms need more than the page). */
export function requireAction(staff: StaffMember, action: DeskAction): void {
  if (!mayAct(staff.roles, action)) throw new Response(null, { status: 403 });
}
