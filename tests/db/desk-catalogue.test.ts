import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { listTopics, topicByFormerAddress } from "~/server/content/topics";
import { auditPage } from "~/server/desk/audit";
import { createAuthor, getAuthor, listAuthors, updateAuthor } from "~/server/desk/catalogue/authors";
import type { Editor } from "~/server/desk/catalogue/common";
import { createTopic, getDeskTopic, listDeskTopics, listSubjects, updateTopic } from "~/server/desk/catalogue/topics";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// Authors and topics at the desk (ADR 078) on the database the run uses: lists, creates, saves
// guarded by the version read, the audit rows they leave, and a renamed topic's old addresses.

const AT = new Date("2026-05-14T09:00:00Z");
const later = (minutes: number) => new Date(AT.getTime() + minutes * 60_000);
const ada: Editor = { actor: { id: "user-ada", label: "ada@example.org" }, name: "Ada Lovelace" };
const grace: Editor = { actor: { id: "user-grace", label: "grace@example.org" }, name: "Grace Hopper" };

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function auditRows(subject: string) {
  const { rows } = await auditPage(db, {}, 1, 1000);
  return rows.filter((row) => row.subject === subject).reverse();
}

describe("authors", () => {
  it("lists authors by name, finds words in the name, slug or role in any case, and pages", async () => {
    const all = await listAuthors(db, { page: 1, pageSize: 500 });
    expect(all.total).toBeGreaterThan(10);
    const names = all.items.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(all.items.some((a) => a.articles > 0)).toBe(true);
    const found = await listAuthors(db, { q: "OKAFOR", page: 1, pageSize: 20 });
    expect(found.items.map((a) => a.slug)).toContain("helena-okafor");
    expect((await listAuthors(db, { q: "professor of strategy", page: 1, pageSize: 20 })).total).toBeGreaterThan(0);
    expect((await listAuthors(db, { q: "100%_", page: 1, pageSize: 20 })).total).toBe(0);
    const second = await listAuthors(db, { page: 2, pageSize: 3 });
    expect(second.items.map((a) => a.id)).toEqual(all.items.slice(3, 6).map((a) => a.id));
  });

  it("creates an author with a slug made from the name or given, refusing a taken slug, and audits it", async () => {
    const made = await createAuthor(db, ada, { name: "Zofia Ąbrams-Nkemelu", role: "Economist", bio: "Writes about trade." }, AT);
    expect(made).toMatchObject({ ok: true, value: { slug: "zofia-abrams-nkemelu", version: 1, updatedBy: "Ada Lovelace" } });
    if (!made.ok) return;
    expect(await getAuthor(db, made.value.id)).toEqual(made.value);
    const taken = await createAuthor(db, ada, { name: "Someone Else", slug: "zofia-abrams-nkemelu", role: "x", bio: "y" }, AT);
    expect(taken).toEqual({ ok: false, reason: "invalid", fields: { slug: ["Another author has this slug: choose another."] } });
    expect(await createAuthor(db, ada, { name: "李", role: "x", bio: "y" }, AT)).toMatchObject({
      ok: false,
      fields: { slug: [expect.any(String)] },
    });
    const rows = await auditRows("author:zofia-abrams-nkemelu");
    expect(rows.map((r) => [r.action, r.actor, r.before, r.after])).toEqual([
      [
        "author.create",
        "ada@example.org",
        null,
        { name: "Zofia Ąbrams-Nkemelu", slug: "zofia-abrams-nkemelu", role: "Economist", bio: "Writes about trade." },
      ],
    ]);
  });

  it("saves over the version read; a stale save writes nothing and answers who changed it when", async () => {
    const made = await createAuthor(db, ada, { name: "Priya Stale", role: "Editor", bio: "Bio one." }, AT);
    if (!made.ok) throw new Error("not made");
    const { id } = made.value;
    // Ada and Grace both open version 1; Grace saves first.
    const first = await updateAuthor(db, grace, id, { version: 1, role: "Senior editor" }, later(5));
    expect(first).toMatchObject({ ok: true, changed: true, value: { version: 2, role: "Senior editor", updatedBy: "Grace Hopper" } });
    const stale = await updateAuthor(db, ada, id, { version: 1, name: "Priya Overwrite", role: "Editor", bio: "Bio two." }, later(6));
    expect(stale).toMatchObject({
      ok: false,
      reason: "stale",
      current: { version: 2, name: "Priya Stale", role: "Senior editor", updatedBy: "Grace Hopper", updatedAt: later(5).toISOString() },
    });
    expect(await getAuthor(db, id)).toMatchObject({ name: "Priya Stale", role: "Senior editor", bio: "Bio one.", version: 2 });
    // Saving what is there already writes nothing.
    expect(await updateAuthor(db, ada, id, { version: 2, role: "Senior editor" }, later(7))).toMatchObject({
      ok: true,
      changed: false,
      value: { version: 2 },
    });
    expect(await updateAuthor(db, ada, 999_999, { version: 1, name: "Nobody" }, AT)).toEqual({ ok: false, reason: "not-found" });
    const rows = await auditRows(`author:${made.value.slug}`);
    expect(rows.map((r) => [r.action, r.actor, r.before, r.after])).toEqual([
      ["author.create", "ada@example.org", null, expect.any(Object)],
      ["author.update", "grace@example.org", { role: "Editor" }, { role: "Senior editor" }],
    ]);
  });

  it("lets one of two saves of the same version through when they race", async () => {
    const made = await createAuthor(db, ada, { name: "Race Author", role: "Editor", bio: "Bio." }, AT);
    if (!made.ok) throw new Error("not made");
    const results = await Promise.all([
      updateAuthor(db, ada, made.value.id, { version: 1, bio: "Ada's bio." }, later(1)),
      updateAuthor(db, grace, made.value.id, { version: 1, bio: "Grace's bio." }, later(1)),
    ]);
    expect(results.filter((r) => r.ok).length).toBe(1);
    expect(results.filter((r) => !r.ok && r.reason === "stale").length).toBe(1);
    expect((await getAuthor(db, made.value.id))!.version).toBe(2);
  });

  it("gives each of several authors made at once an id of its own", async () => {
    const made = await Promise.all(
      [1, 2, 3, 4].map((n) => createAuthor(db, ada, { name: `Parallel Author ${n}`, role: "Writer", bio: "Bio." }, AT)),
    );
    const ids = made.map((m) => (m.ok ? m.value.id : 0));
    expect(new Set(ids).size).toBe(4);
    expect(ids).not.toContain(0);
  });
});

describe("topics", () => {
  it("lists topics with their subject, finds words in the name, and lists the subjects", async () => {
    const found = await listDeskTopics(db, { q: "strategy", page: 1, pageSize: 50 });
    expect(found.items.find((t) => t.name === "Strategy")).toMatchObject({ subject: null });
    expect(found.items.some((t) => t.subject === "Strategy")).toBe(true);
    const subjects = await listSubjects(db);
    expect(subjects.length).toBe(14);
    expect(subjects.map((s) => s.name)).toContain("Strategy");
  });

  it("creates a topic under a subject with the subject's rules, and refuses a name whose page is taken or a subject that is not one", async () => {
    const subjects = await listDeskTopics(db, { q: "", page: 1, pageSize: 500 });
    const locked = subjects.items.find((t) => t.subject === null && t.subscriberOnly)!;
    const made = await createTopic(
      db,
      ada,
      {
        name: "Pricing Power",
        description: "Setting prices.",
        subject: locked.name.toUpperCase(),
        subscriberOnly: false,
        executiveOnly: false,
      },
      AT,
    );
    expect(made).toMatchObject({
      ok: true,
      value: { slug: "pricing-power", path: "/topic/subject/pricing-power", subject: locked.name, subscriberOnly: true, version: 1 },
    });
    const clash = await createTopic(
      db,
      ada,
      { name: "pricing  power", description: "x", subject: null, subscriberOnly: false, executiveOnly: false },
      AT,
    );
    expect(clash).toMatchObject({ ok: false, reason: "invalid", fields: { name: [expect.stringContaining("Pricing Power")] } });
    const notSubject = await createTopic(
      db,
      ada,
      { name: "Yield", description: "x", subject: "Pricing Power", subscriberOnly: false, executiveOnly: false },
      AT,
    );
    expect(notSubject).toMatchObject({ ok: false, fields: { subject: ["Choose a subject from the list, or none for a subject."] } });
    const rows = await auditRows("topic:pricing-power");
    expect(rows[0]).toMatchObject({ action: "topic.create", after: { name: "Pricing Power", subject: locked.name, subscriberOnly: true } });
  });

  it("moves a renamed topic's page: its old slug and old name lead to the new page, and a new topic may take the old slug back", async () => {
    const made = await createTopic(
      db,
      ada,
      { name: "Supply Risk", description: "Risks.", subject: "Operations", subscriberOnly: false, executiveOnly: false },
      AT,
    );
    if (!made.ok) throw new Error(JSON.stringify(made));
    // The readers' list of topics (kept in memory for a minute) shows the new topic, then its new name, at once.
    expect((await listTopics(db)).map((t) => t.name)).toContain("Supply Risk");
    const renamed = await updateTopic(db, grace, made.value.id, { version: 1, name: "Supply & Demand Risk" }, later(1));
    expect((await listTopics(db)).map((t) => t.name)).toEqual(expect.arrayContaining(["Supply & Demand Risk"]));
    expect((await listTopics(db)).map((t) => t.name)).not.toContain("Supply Risk");
    expect(renamed).toMatchObject({ ok: true, value: { slug: "supply-and-demand-risk", formerSlugs: ["supply-risk"], version: 2 } });
    expect((await topicByFormerAddress(db, "slug", "supply-risk"))?.id).toBe(made.value.id);
    expect((await topicByFormerAddress(db, "headline", "Supply-Risk"))?.id).toBe(made.value.id);
    expect(await topicByFormerAddress(db, "slug", "no-such-topic")).toBeUndefined();
    expect((await auditRows("topic:supply-and-demand-risk")).map((r) => [r.before, r.after])).toEqual([
      [
        { name: "Supply Risk", slug: "supply-risk" },
        { name: "Supply & Demand Risk", slug: "supply-and-demand-risk" },
      ],
    ]);
    // Renamed again: both earlier slugs lead to it.
    const again = await updateTopic(db, grace, made.value.id, { version: 2, name: "Supply Chain Risk" }, later(2));
    expect(again).toMatchObject({ ok: true, value: { formerSlugs: ["supply-risk", "supply-and-demand-risk"] } });
    // A new topic takes the first slug: its live page wins, and the old address no longer redirects.
    const reborn = await createTopic(
      db,
      ada,
      { name: "Supply Risk", description: "New.", subject: null, subscriberOnly: false, executiveOnly: false },
      later(3),
    );
    expect(reborn.ok).toBe(true);
    expect(await topicByFormerAddress(db, "slug", "supply-risk")).toBeUndefined();
    expect((await getDeskTopic(db, made.value.id))!.formerSlugs).toEqual(["supply-and-demand-risk"]);
  });

  it("refuses a stale save, keeps a subject with topics or first-filed articles a subject, and carries a subject's rules to its topics", async () => {
    const subject = await createTopic(
      db,
      ada,
      { name: "Dealcraft", description: "Deals.", subject: null, subscriberOnly: false, executiveOnly: false },
      AT,
    );
    if (!subject.ok) throw new Error("not made");
    const topic = await createTopic(
      db,
      ada,
      { name: "Salary Talks", description: "Pay.", subject: "Dealcraft", subscriberOnly: true, executiveOnly: false },
      AT,
    );
    if (!topic.ok) throw new Error("not made");
    expect(topic.value.subscriberOnly).toBe(false);

    const closed = await updateTopic(db, grace, subject.value.id, { version: 1, executiveOnly: true }, later(1));
    expect(closed).toMatchObject({ ok: true, value: { executiveOnly: true, version: 2 } });
    expect(await getDeskTopic(db, topic.value.id)).toMatchObject({ executiveOnly: true, version: 2, updatedBy: "Grace Hopper" });
    const rows = await auditRows("topic:dealcraft");
    expect(rows.at(-1)).toMatchObject({ before: { executiveOnly: false }, after: { executiveOnly: true, topicsFollowing: 1 } });

    const stale = await updateTopic(db, ada, topic.value.id, { version: 1, description: "Mine." }, later(2));
    expect(stale).toMatchObject({ ok: false, reason: "stale", current: { version: 2, updatedBy: "Grace Hopper" } });

    expect(await updateTopic(db, ada, subject.value.id, { version: 2, subject: "Strategy" }, later(3))).toMatchObject({
      ok: false,
      fields: { subject: ["This subject has 1 topic: it stays a subject until they move."] },
    });
    expect(await updateTopic(db, ada, subject.value.id, { version: 2, subject: "dealcraft" }, later(3))).toMatchObject({
      ok: false,
      fields: { subject: ["A topic cannot be its own subject."] },
    });
    const strategy = (await listTopics(db)).find((t) => t.name === "Strategy")!;
    const desk = (await getDeskTopic(db, strategy.id))!;
    expect(await updateTopic(db, ada, strategy.id, { version: desk.version, subject: "Dealcraft" }, later(3))).toMatchObject({
      ok: false,
      fields: { subject: [expect.stringMatching(/topics?: it stays a subject|articles? files? under this subject/)] },
    });
    // A topic moves to another subject and takes its rules.
    const moved = await updateTopic(db, ada, topic.value.id, { version: 2, subject: "Strategy" }, later(4));
    expect(moved).toMatchObject({ ok: true, value: { subject: "Strategy", executiveOnly: strategy.executiveOnly } });
  });
});
