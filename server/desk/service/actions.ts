import type { Database } from "~/server/db/connection";
import { requestAddressVerification } from "~/server/accounts/email-change";
import { requestPasswordReset } from "~/server/accounts/password-reset";
import { findActivePrintRecord, grantPrintSubscription, printReference, PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import { findUserById, type User } from "~/server/accounts/users";
import { recordAudit, type AuditAction, type AuditActor } from "~/server/desk/audit";
import { extendedExpiries, laterExpiry } from "~/server/store/download-extensions";
import { CASE_STUDY, expiryOf } from "~/server/store/downloads";
import { grantSubscription } from "~/server/subscriptions/entitlements";
import { extendable } from "./reader";
import {
  addDuration,
  COMP_MAX_YEARS,
  COMP_REFERENCE_PREFIX,
  compRoleCode,
  extendFrom,
  REQUEST_KEY,
  type CompTier,
  type Duration,
} from "./rules";

// Customer service's actions on a reader (ADR 087). Each runs in one transaction with its audit
// row (the reason in `after`) and the form's key: a key already used is a replay, which changes
// nothing and answers as the first post did. A refusal writes nothing, the key included. The
// caller mails the reader once the transaction has committed.

/** Every action names the reader, the form's key and the staff member's reason. */
export interface ServiceInput {
  userId: string;
  key: string;
  reason: string;
}

export type ServiceRefusal =
  | "not-found"
  | "not-locked"
  | "staff"
  | "already-restricted"
  | "not-restricted"
  | "verified"
  | "restricted"
  | "hard-locked"
  | "no-print-record"
  | "already-linked"
  | "linked-elsewhere"
  | "not-linked"
  | "not-extendable"
  | "has-plan"
  | "end-out-of-range"
  | "not-case-study"
  | "no-receipt"
  | "no-order"
  | "changed";

export type ServiceOutcome<T = undefined> =
  | { ok: true; replay: boolean; user: User; value: T | undefined }
  | { ok: false; reason: Exclude<ServiceRefusal, "changed"> }
  /** The thing changed since the form was read: who last changed it at the desk, and when, if known. */
  | { ok: false; reason: "changed"; by: string | null; at: string | null };

type Refusal = Extract<ServiceOutcome, { ok: false }>;

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

const refuse = (reason: Exclude<ServiceRefusal, "changed">): never => {
  throw new Refused({ ok: false, reason });
};

interface Step<T> {
  action: AuditAction;
  subject: (user: User) => string;
  work: (tx: Database, user: User) => Promise<{ before: unknown; after: object; value?: T }>;
}

async function serviceAction<T>(
  db: Database,
  actor: AuditActor,
  input: ServiceInput,
  now: Date,
  step: Step<T>,
): Promise<ServiceOutcome<T>> {
  if (!REQUEST_KEY.test(input.key)) throw new Error("a service form's key is checked before it gets here");
  try {
    return await db.transaction().execute(async (tx) => {
      const user = await findUserById(tx, input.userId);
      if (!user) return refuse("not-found");
      const fresh = await tx
        .insertInto("service_request")
        .values({ key: input.key, action: step.action, user_id: user.id, created_at: now.toISOString() })
        .onConflict((oc) => oc.column("key").doNothing())
        .returning("key")
        .executeTakeFirst();
      if (!fresh) return { ok: true, replay: true, user, value: undefined };
      const done = await step.work(tx, user);
      await recordAudit(
        tx,
        { actor, action: step.action, subject: step.subject(user), before: done.before, after: { ...done.after, reason: input.reason } },
        now,
      );
      return { ok: true, replay: false, user, value: done.value };
    });
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}

const readerSubject = (user: User) => `reader:${user.email}`;

/** Clears the sign-in failures and any lockout of the reader's address, the day-long one too. */
export function unlockAccount(db: Database, actor: AuditActor, input: ServiceInput, now: Date): Promise<ServiceOutcome> {
  return serviceAction(db, actor, input, now, {
    action: "reader.unlock",
    subject: readerSubject,
    async work(tx, user) {
      const row = await tx
        .deleteFrom("login_failure")
        .where("email", "=", user.email)
        .returning(["failures", "locked_until", "hard_locked"])
        .executeTakeFirst();
      if (!row || (Number(row.failures) === 0 && !(row.locked_until && row.locked_until > now.toISOString()))) refuse("not-locked");
      return {
        before: { failures: Number(row!.failures), lockedUntil: row!.locked_until, dayLong: Number(row!.hard_locked) === 1 },
        after: { failures: 0, lockedUntil: null },
      };
    },
  });
}

/**
 * Restricts the account: it cannot sign in or reset its password (the spec's restricted-user
 * message), and every session ends. Staff are refused: an admin removes them from staff first.
 */
export function restrictAccount(db: Database, actor: AuditActor, input: ServiceInput, now: Date): Promise<ServiceOutcome> {
  return serviceAction(db, actor, input, now, {
    action: "reader.restrict",
    subject: readerSubject,
    async work(tx, user) {
      if (await tx.selectFrom("staff_role").select("role").where("user_id", "=", user.id).executeTakeFirst()) refuse("staff");
      const changed = await tx
        .updateTable("app_user")
        .set({ status: "restricted", updated_at: now.toISOString() })
        .where("id", "=", user.id)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) refuse("already-restricted");
      await tx.deleteFrom("user_session").where("user_id", "=", user.id).execute();
      return { before: { status: "active" }, after: { status: "restricted" } };
    },
  });
}

export function unrestrictAccount(db: Database, actor: AuditActor, input: ServiceInput, now: Date): Promise<ServiceOutcome> {
  return serviceAction(db, actor, input, now, {
    action: "reader.unrestrict",
    subject: readerSubject,
    async work(tx, user) {
      const changed = await tx
        .updateTable("app_user")
        .set({ status: "active", updated_at: now.toISOString() })
        .where("id", "=", user.id)
        .where("status", "=", "restricted")
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) !== 1) refuse("not-restricted");
      return { before: { status: "restricted" }, after: { status: "active" } };
    },
  });
}

/** A mail the desk can send again. */
export type ResendKind =
  { kind: "verification" } | { kind: "reset" } | { kind: "receipt"; invoiceId: string } | { kind: "order"; orderId: string };

/** What the caller then sends, through the function the site sends it with. */
export type Resend =
  | { kind: "verification"; token: string }
  | { kind: "reset"; token: string }
  | { kind: "receipt"; invoiceId: string }
  | { kind: "order"; orderId: string };

/**
 * Makes a mail ready to go again: a new verification or reset link (the old ones are replaced as
 * the site replaces them), or a paid invoice's receipt or order's confirmation marked unsent, so
 * the site's own sender (which sends each once) sends it.
 */
export function prepareResend(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { mail: ResendKind },
  now: Date,
): Promise<ServiceOutcome<Resend>> {
  return serviceAction<Resend>(db, actor, input, now, {
    action: "reader.resend-mail",
    subject: readerSubject,
    async work(tx, user) {
      const mail = input.mail;
      switch (mail.kind) {
        case "verification": {
          if (user.emailVerifiedAt) refuse("verified");
          if (user.status !== "active") refuse("restricted");
          return {
            before: null,
            after: { mail: "verification" },
            value: { kind: "verification", token: await requestAddressVerification(tx, user, now) },
          };
        }
        case "reset": {
          const reset = await requestPasswordReset(tx, user.email, now);
          if (reset.outcome === "restricted") refuse("restricted");
          if (reset.outcome === "hard-locked") refuse("hard-locked");
          if (reset.outcome !== "sent") refuse("not-found");
          return { before: null, after: { mail: "password reset" }, value: { kind: "reset", token: (reset as { token: string }).token } };
        }
        case "receipt": {
          const invoice = await tx
            .updateTable("invoice")
            .set({ receipt_sent_at: null, receipt_claimed_until: null })
            .where("id", "=", mail.invoiceId)
            .where("user_id", "=", user.id)
            .returning("number")
            .executeTakeFirst();
          if (!invoice) refuse("no-receipt");
          return { before: null, after: { mail: "receipt", invoice: Number(invoice!.number) }, value: mail };
        }
        case "order": {
          const order = await tx
            .updateTable("store_order")
            .set({ confirmation_sent_at: null })
            .where("id", "=", mail.orderId)
            .where("status", "=", "paid")
            .where((eb) => eb.or([eb("user_id", "=", user.id), eb.and([eb("user_id", "is", null), eb("email", "=", user.email)])]))
            .returning("number")
            .executeTakeFirst();
          if (!order) refuse("no-order");
          return { before: null, after: { mail: "order confirmation and downloads", order: order!.number }, value: mail };
        }
      }
    },
  });
}

/**
 * Links an active print subscription to the reader, by its account number, whatever address it
 * is under: the agent has checked who the caller is. A subscription linked to another account is
 * refused: it is unlinked there first.
 */
export function linkPrint(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { accountNumber: string },
  now: Date,
): Promise<ServiceOutcome<string>> {
  return serviceAction<string>(db, actor, input, now, {
    action: "reader.link-print",
    subject: readerSubject,
    async work(tx, user) {
      const record = await findActivePrintRecord(tx, input.accountNumber, now);
      if (!record) return refuse("no-print-record");
      const holder = await tx
        .selectFrom("subscription")
        .select("user_id")
        .where("reference", "=", printReference(record.accountNumber))
        .executeTakeFirst();
      if (holder) refuse(holder.user_id === user.id ? "already-linked" : "linked-elsewhere");
      await grantPrintSubscription(tx, user.id, record);
      return { before: null, after: { printAccount: record.accountNumber, accessEnd: record.accessEnd }, value: record.accountNumber };
    },
  });
}

export function unlinkPrint(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { accountNumber: string },
  now: Date,
): Promise<ServiceOutcome<string>> {
  return serviceAction<string>(db, actor, input, now, {
    action: "reader.unlink-print",
    subject: readerSubject,
    async work(tx, user) {
      const number = input.accountNumber.trim().toUpperCase();
      const removed = await tx
        .deleteFrom("subscription")
        .where("user_id", "=", user.id)
        .where("source", "=", "print")
        .where("reference", "=", `${PRINT_REFERENCE_PREFIX}${number}`)
        .returning(["role_code", "access_end"])
        .executeTakeFirst();
      if (!removed) refuse("not-linked");
      return {
        before: { printAccount: number, roleCode: removed!.role_code, accessEnd: removed!.access_end },
        after: { printAccount: null },
        value: number,
      };
    },
  });
}

/** Who last changed this subject at the desk, for the lost-update message. */
async function lastChange(db: Database, subject: string): Promise<{ by: string | null; at: string | null }> {
  const row = await db
    .selectFrom("desk_audit as a")
    .leftJoin("app_user as u", "u.id", "a.actor_id")
    .select(["a.actor", "a.at", "u.first_name", "u.last_name"])
    .where("a.subject", "=", subject)
    .orderBy("a.at", "desc")
    .orderBy("a.id", "desc")
    .executeTakeFirst();
  if (!row) return { by: null, at: null };
  return { by: row.first_name ? `${row.first_name} ${row.last_name}`.trim() : row.actor, at: row.at };
}

async function changed(db: Database, subject: string): Promise<never> {
  throw new Refused({ ok: false, reason: "changed", ...(await lastChange(db, subject)) });
}

/**
 * Moves a web subscription's end later, from the end the form showed (`seenEnd`): if it moved
 * meanwhile, nothing changes. A plan that renews then renews from its new end.
 */
export function extendSubscription(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { subscriptionId: string; seenEnd: string; by: Duration },
  now: Date,
): Promise<ServiceOutcome<string>> {
  const subject = `subscription:${input.subscriptionId}`;
  return serviceAction<string>(db, actor, input, now, {
    action: "subscription.extend",
    subject: () => subject,
    async work(tx, user) {
      const row = await tx
        .selectFrom("subscription")
        .select(["access_end", "source", "status", "billing_status", "provider_subscription_id", "role_code"])
        .where("id", "=", input.subscriptionId)
        .where("user_id", "=", user.id)
        .executeTakeFirst();
      if (!row) return refuse("not-found");
      if (!extendable(row)) refuse("not-extendable");
      if (row.access_end !== input.seenEnd) await changed(tx, subject);
      const end = addDuration(extendFrom(row.access_end, now), input.by).toISOString();
      const moved = await tx
        .updateTable("subscription")
        .set({ access_end: end })
        .where("id", "=", input.subscriptionId)
        .where("access_end", "=", row.access_end)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) await changed(tx, subject);
      return {
        before: { reader: user.email, accessEnd: row.access_end },
        after: { accessEnd: end, by: `${input.by.amount} ${input.by.unit}` },
        value: end,
      };
    },
  });
}

/**
 * A complimentary subscription: the tier, no charge, access from now to the end of `endsOn` (a
 * UTC day). It ends by itself then, like any plan that does not renew. A reader with a web plan
 * still running has that plan extended instead, since a new web plan would replace it.
 */
export function grantComp(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { tier: CompTier; endsOn: string },
  now: Date,
): Promise<ServiceOutcome<string>> {
  return serviceAction<string>(db, actor, input, now, {
    action: "subscription.comp",
    subject: readerSubject,
    async work(tx, user) {
      const end = new Date(`${input.endsOn}T23:59:59.999Z`);
      const latest = new Date(now);
      latest.setUTCFullYear(latest.getUTCFullYear() + COMP_MAX_YEARS);
      if (Number.isNaN(end.getTime()) || end <= now || end > latest) refuse("end-out-of-range");
      const running = await tx
        .selectFrom("subscription")
        .select("id")
        .where("user_id", "=", user.id)
        .where("source", "=", "web")
        .where("status", "=", "active")
        .where("access_end", ">", now.toISOString())
        .executeTakeFirst();
      if (running) refuse("has-plan");
      const roleCode = compRoleCode(input.tier);
      await grantSubscription(
        tx,
        { userId: user.id, roleCode, source: "web", reference: `${COMP_REFERENCE_PREFIX}${input.key}`, accessStart: now, accessEnd: end },
        now,
      );
      return { before: null, after: { complimentary: roleCode, accessEnd: end.toISOString() }, value: end.toISOString() };
    },
  });
}

/**
 * Moves a case study's download end later, from the end the form showed. The line must be a
 * case study in one of the reader's paid orders.
 */
export function extendCaseStudy(
  db: Database,
  actor: AuditActor,
  input: ServiceInput & { orderId: string; position: number; seenEnd: string; by: Duration },
  now: Date,
): Promise<ServiceOutcome<string>> {
  return serviceAction<string>(db, actor, input, now, {
    action: "download.extend",
    subject: () => `download:${input.orderId}/${input.position}`,
    async work(tx, user) {
      const subject = `download:${input.orderId}/${input.position}`;
      const line = await tx
        .selectFrom("store_order as o")
        .innerJoin("store_order_line as l", "l.order_id", "o.id")
        .select(["o.number", "o.paid_at", "l.kind", "l.product_type", "l.title"])
        .where("o.id", "=", input.orderId)
        .where("l.position", "=", input.position)
        .where("o.status", "=", "paid")
        .where("l.product_type", "=", CASE_STUDY)
        .where((eb) => eb.or([eb("o.user_id", "=", user.id), eb.and([eb("o.user_id", "is", null), eb("o.email", "=", user.email)])]))
        .executeTakeFirst();
      const own = line?.paid_at ? expiryOf(line, line.paid_at) : null;
      if (!line || !own) return refuse("not-case-study");
      const stored = (await extendedExpiries(tx, input.orderId)).get(input.position);
      const current = laterExpiry(own, stored)!;
      if (current !== input.seenEnd) await changed(tx, subject);
      const end = addDuration(extendFrom(current, now), input.by).toISOString();
      const at = now.toISOString();
      const written =
        stored === undefined
          ? await tx
              .insertInto("download_extension")
              .values({ order_id: input.orderId, position: input.position, expires_at: end, updated_at: at })
              .onConflict((oc) => oc.columns(["order_id", "position"]).doNothing())
              .executeTakeFirst()
          : await tx
              .updateTable("download_extension")
              .set({ expires_at: end, updated_at: at })
              .where("order_id", "=", input.orderId)
              .where("position", "=", input.position)
              .where("expires_at", "=", stored)
              .executeTakeFirst();
      const count = "numInsertedOrUpdatedRows" in written ? written.numInsertedOrUpdatedRows : written.numUpdatedRows;
      if (Number(count ?? 0) !== 1) await changed(tx, subject);
      return {
        before: { reader: user.email, order: line.number, title: line.title, expiresAt: current },
        after: { expiresAt: end, by: `${input.by.amount} ${input.by.unit}` },
        value: end,
      };
    },
  });
}
