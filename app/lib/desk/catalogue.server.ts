import type { Editor, LastSave } from "~/server/desk/catalogue/common";
import type { StaffMember } from "~/server/desk/staff";
import { catalogueQuerySchema } from "~/shared/catalogue-fields";
import { auditActor } from "./access.server";
import { changedSinceOpened } from "./conflict";

// What the desk's author and topic pages share (ADR 078).

export const CATALOGUE_PAGE_SIZE = 25;

/** The staff member saving, as the audit log and the conflict message name them. */
export function deskEditor(staff: StaffMember): Editor {
  return { actor: auditActor(staff), name: `${staff.user.firstName} ${staff.user.lastName}`.trim() || staff.user.email };
}

/** A listing's search words and page from the address; what cannot be read is left out, and said so. */
export function listingQuery(request: Request): { q: string; page: number; problem: string | null } {
  const params = new URL(request.url).searchParams;
  const raw = Object.fromEntries([...params].filter(([name, value]) => (name === "q" || name === "page") && value !== ""));
  const parsed = catalogueQuerySchema.safeParse(raw);
  if (parsed.success) return { q: parsed.data.q ?? "", page: parsed.data.page ?? 1, problem: null };
  return { q: "", page: 1, problem: "The search could not be read and was left out: words up to 200 characters, and a page from 1." };
}

/** Why a save was refused: someone saved since the form was opened. */
export function staleMessage(current: LastSave, kind: "author" | "topic"): string {
  return `${changedSinceOpened(kind, current.updatedBy, current.updatedAt)} Nothing of yours was saved: your changes are still in the form, and the saved version is shown beside it. Save again to replace it with yours.`;
}
