// A magazine runs a cover story again over the years (the archive's "Knowledge Management" was on
// fourteen covers), and each issue is its own search document. Listed one by one, the issues
// of a common word's cover story crowded out everything else, so a result list shows each cover
// story once, at its best-placed issue, naming the other matching issues beside it.
import { ContentCache } from "~/server/content/content-cache";
import type { Database } from "~/server/db/connection";
import { kindOfKey } from "./documents";

/** An issue as a group names it: its months, and its page. */
export interface OtherIssue {
  when: string;
  url: string;
}

interface IssueDocument extends OtherIssue {
  /** The cover story's title, as issues are grouped by it. */
  cover: string;
}

/** Issues change only at the desk, which moves the content generation on. */
const issueDocuments = new ContentCache<Map<number, IssueDocument>>(1, 10 * 60_000);

function issuesByKey(db: Database): Promise<Map<number, IssueDocument>> {
  return issueDocuments.get(db, "all", async () => {
    const rows = await db
      .selectFrom("search_document as d")
      .innerJoin("magazine_issue as i", "i.id", "d.ref_id")
      .where("d.kind", "=", "issue")
      .select(["d.id", "d.url", "i.title", "i.month_label", "i.year"])
      .execute();
    return new Map(
      rows.map((r) => [Number(r.id), { cover: r.title.trim().toLowerCase(), when: `${r.month_label} ${r.year}`, url: r.url }]),
    );
  });
}

/** A result's place in a list: its key, and for an issue the other matching issues with its cover story. */
export interface Grouped {
  key: number;
  others: OtherIssue[];
}

/**
 * The keys in the same order, each issue whose cover story came earlier in the list folded into
 * that first issue's `others` (newest first). Other kinds of document pass as they are.
 */
export async function groupIssues(db: Database, keys: number[]): Promise<Grouped[]> {
  if (!keys.some((key) => kindOfKey(key) === "issue")) return keys.map((key) => ({ key, others: [] }));
  const issues = await issuesByKey(db);
  const out: Grouped[] = [];
  const byCover = new Map<string, { group: Grouped; keys: number[] }>();
  for (const key of keys) {
    const issue = kindOfKey(key) === "issue" ? issues.get(key) : undefined;
    if (!issue) {
      out.push({ key, others: [] });
      continue;
    }
    const first = byCover.get(issue.cover);
    if (first) first.keys.push(key);
    else {
      const group: Grouped = { key, others: [] };
      byCover.set(issue.cover, { group, keys: [] });
      out.push(group);
    }
  }
  // Smaller keys are newer (documents.ts).
  for (const { group, keys: folded } of byCover.values()) {
    group.others = folded.sort((a, b) => a - b).map((key) => ({ when: issues.get(key)!.when, url: issues.get(key)!.url }));
  }
  return out;
}
