import type { Database } from "~/server/db/connection";
import { getIssue, type DeskIssue } from "~/server/newsletters/issues";
import { notFound } from "./access.server";
import { deskTime } from "./format";

// What the desk's newsletter routes share: the issue an address names, and the words of a change
// that someone else's got ahead of.

/** The issue an address's id names, in any state; the 404 for anything else. */
export async function issueFromParam(db: Database, param: string | undefined): Promise<DeskIssue> {
  const id = /^[1-9]\d{0,8}$/.test(param ?? "") ? Number(param) : null;
  const issue = id === null ? undefined : await getIssue(db, id);
  return issue ?? notFound();
}

/** "changed by {name} at {time} since you opened it" (issue 38), as a sentence. */
export const issueConflictMessage = (by: string, at: string) => `This issue was changed by ${by} at ${deskTime(at)} since you opened it.`;
