import crypto from "node:crypto";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import type { ZodTypeAny } from "zod";
import type { User } from "~/server/accounts/users";
import { mailer } from "~/server/adapters/mail";
import { billingMail, sendReceipts } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import type { DeskAction } from "~/server/desk/roles";
import {
  COMP_TIERS,
  extendCaseStudy,
  extendSubscription,
  grantComp,
  linkPrint,
  prepareResend,
  restrictAccount,
  sendServiceNotice,
  unlinkPrint,
  unlockAccount,
  unrestrictAccount,
  type Resend,
  type ServiceInput,
  type ServiceNotice,
  type ServiceOutcome,
  type ServiceRefusal,
} from "~/server/desk/service";
import type { StaffMember } from "~/server/desk/staff";
import { log } from "~/server/log";
import { sendOrderConfirmation } from "~/server/store/order-mail";
import { sendEmailConfirmation, sendPasswordResetMail } from "~/app/lib/accounts/mail.server";
import { config } from "~/app/lib/context/db.server";
import { auditActor, notFound, requireAction } from "~/app/lib/desk/access.server";
import { changedSinceOpened } from "~/app/lib/desk/conflict";
import { compSchema, extendDownloadSchema, extendSchema, printSchema, reasonSchema, resendSchema } from "~/app/lib/desk/reader-forms";
import { redirect } from "~/app/lib/http/responses.server";

// The reader page's forms (ADR 087): each intent is checked against the staff member's roles,
// read with its schema, done by the domain, and then the reader is mailed; success goes back to
// the page with a status message (Post/Redirect/Get), a refusal answers the form with its message.

/** A new key for a page's forms; each form's action key is made from it, the intent and the form's target. */
export const newFormKey = () => crypto.randomBytes(16).toString("base64url");

const actionKey = (formKey: string, intent: string, target: string) =>
  crypto.createHash("sha256").update(`${formKey}|${intent}|${target}`).digest("base64url");

/** The status messages the page shows after a redirect, by `?done=`. */
export const DONE: Record<string, string> = {
  unlock: "Unlocked: they can sign in again. They were mailed.",
  restrict: "Restricted: they are signed out everywhere and sign-in refuses them with the restricted-user message. They were mailed.",
  unrestrict: "Restriction lifted: they can sign in again. They were mailed.",
  resend: "The mail was sent again.",
  "resend-failed": "The mail could not be handed over: try again in a while.",
  "link-print": "Print subscription linked: its access is theirs now. They were mailed.",
  "unlink-print": "Print subscription unlinked. They were mailed.",
  extend: "Subscription extended. They were mailed.",
  comp: "Complimentary subscription granted: it ends by itself on its day. They were mailed.",
  "extend-download": "Download access extended. They were mailed.",
};

/** What the desk (and the Admin API) says when the domain refuses an action. */
export const REFUSED: Record<Exclude<ServiceRefusal, "changed" | "not-found">, string> = {
  "not-locked": "This account is not locked and has no failed sign-ins to clear.",
  staff: "This account is staff: an admin removes them from staff before it can be restricted.",
  "already-restricted": "This account is already restricted.",
  "not-restricted": "This account is not restricted.",
  verified: "Their address is already verified.",
  restricted: "This account is restricted: lift the restriction first.",
  "hard-locked": "This account is locked for a day: unlock it first, then send the reset link.",
  "no-print-record": "No active print subscription has that account number.",
  "already-linked": "That print subscription is already linked to this account.",
  "linked-elsewhere": "That print subscription is linked to another account: unlink it there first.",
  "not-linked": "That print subscription is not linked to this account.",
  "not-extendable":
    "This subscription cannot be extended here: print access follows its print record, and a plan renewed by Stripe or past due is changed at the provider.",
  "has-plan": "They have a web plan running: extend it instead.",
  "end-out-of-range": "Enter the day it ends, as YYYY-MM-DD: after today, and within 5 years.",
  "not-case-study": "That is not a case study in one of their paid orders.",
  "no-receipt": "That invoice is not theirs.",
  "no-order": "That order is not one of their paid orders.",
};

interface Handled {
  outcome: ServiceOutcome<unknown>;
  /** What the reader is told once it is done. */
  notice?: (value: never) => ServiceNotice;
  /** For a resend: the mail itself. */
  resend?: boolean;
}

function parse<S extends ZodTypeAny>(form: FormData, schema: S) {
  return parseWithZod(form, { schema });
}

/** The reader page's action. */
export async function readerAction(
  staff: StaffMember,
  db: Database,
  userId: string,
  form: FormData,
): Promise<Response | ReturnType<typeof data>> {
  const intent = String(form.get("intent") ?? "");
  const needs: Record<string, DeskAction> = {
    unlock: "readers.act",
    restrict: "readers.act",
    unrestrict: "readers.act",
    resend: "readers.act",
    "link-print": "readers.act",
    "unlink-print": "readers.act",
    "extend-download": "readers.act",
    extend: "subscriptions.grant",
    comp: "subscriptions.grant",
  };
  const action = needs[intent];
  if (!action) notFound();
  requireAction(staff, action);
  const actor = auditActor(staff);
  const now = new Date();
  const here = `/desk/readers/${encodeURIComponent(userId)}`;

  const submission = parse(form, schemaFor(intent));
  const target = targetOf(intent, form);
  if (submission.status !== "success") return data({ intent, target, result: submission.reply() }, { status: 400 });
  const value = submission.value as Record<string, unknown> & { key: string; reason: string };
  const input: ServiceInput = { userId, key: actionKey(value.key, intent, target), reason: value.reason };

  const handled = await run(db, actor, intent, input, value, now);
  const outcome = handled.outcome;
  if (!outcome.ok) {
    if (outcome.reason === "not-found") notFound();
    const message =
      outcome.reason === "changed"
        ? `${changedSinceOpened(intent === "extend-download" ? "download" : "subscription", outcome.by, outcome.at)} Nothing was changed: the page now shows it as it is.`
        : REFUSED[outcome.reason];
    return data({ intent, target, result: submission.reply({ formErrors: [message] }) }, { status: 409 });
  }
  if (outcome.replay) return redirect(`${here}?done=${intent}`, 303);
  if (handled.resend) {
    const sent = await sendAgain(db, outcome.user, outcome.value as Resend, now);
    return redirect(`${here}?done=${sent ? "resend" : "resend-failed"}`, 303);
  }
  if (handled.notice) await sendServiceNotice(billingMail(config(), mailer()), outcome.user, handled.notice(outcome.value as never));
  return redirect(`${here}?done=${intent}`, 303);
}

function schemaFor(intent: string): ZodTypeAny {
  switch (intent) {
    case "resend":
      return resendSchema;
    case "link-print":
    case "unlink-print":
      return printSchema;
    case "extend":
      return extendSchema;
    case "extend-download":
      return extendDownloadSchema;
    case "comp":
      return compSchema;
    default:
      return reasonSchema;
  }
}

/** What a form acts on, so the page's several forms of one kind each have their own key and errors. */
export function targetOf(intent: string, form: FormData): string {
  const field = (name: string) => String(form.get(name) ?? "").slice(0, 100);
  switch (intent) {
    case "extend":
      return field("subscription");
    case "extend-download":
      return `${field("order")}/${field("position")}`;
    case "unlink-print":
      return field("accountNumber");
    default:
      return "";
  }
}

async function run(
  db: Database,
  actor: ReturnType<typeof auditActor>,
  intent: string,
  input: ServiceInput,
  value: Record<string, unknown>,
  now: Date,
): Promise<Handled> {
  switch (intent) {
    case "unlock":
      return { outcome: await unlockAccount(db, actor, input, now), notice: () => ({ kind: "unlocked" }) };
    case "restrict":
      return { outcome: await restrictAccount(db, actor, input, now), notice: () => ({ kind: "restricted" }) };
    case "unrestrict":
      return { outcome: await unrestrictAccount(db, actor, input, now), notice: () => ({ kind: "unrestricted" }) };
    case "resend": {
      const [kind, id] = String(value.mail).split(":") as [string, string | undefined];
      const mail =
        kind === "receipt"
          ? { kind: "receipt" as const, invoiceId: id! }
          : kind === "order"
            ? { kind: "order" as const, orderId: `${id}` }
            : { kind: kind as "verification" | "reset" };
      return { outcome: await prepareResend(db, actor, { ...input, mail }, now), resend: true };
    }
    case "link-print":
      return {
        outcome: await linkPrint(db, actor, { ...input, accountNumber: String(value.accountNumber) }, now),
        notice: (accountNumber: string) => ({ kind: "print-linked", accountNumber }),
      };
    case "unlink-print":
      return {
        outcome: await unlinkPrint(db, actor, { ...input, accountNumber: String(value.accountNumber) }, now),
        notice: (accountNumber: string) => ({ kind: "print-unlinked", accountNumber }),
      };
    case "extend":
      return {
        outcome: await extendSubscription(
          db,
          actor,
          { ...input, subscriptionId: String(value.subscription), seenEnd: String(value.accessEnd), by: duration(value) },
          now,
        ),
        notice: (accessEnd: string) => ({ kind: "extended", accessEnd }),
      };
    case "comp": {
      const tier = value.tier as keyof typeof COMP_TIERS;
      return {
        outcome: await grantComp(db, actor, { ...input, tier, endsOn: String(value.endsOn) }, now),
        notice: (accessEnd: string) => ({ kind: "comp", tier: COMP_TIERS[tier], accessEnd }),
      };
    }
    case "extend-download": {
      const outcome = await extendCaseStudy(
        db,
        actor,
        { ...input, orderId: String(value.order), position: Number(value.position), seenEnd: String(value.expiresAt), by: duration(value) },
        now,
      );
      const title = outcome.ok ? await caseStudyTitle(db, String(value.order), Number(value.position)) : "";
      return { outcome, notice: (expiresAt: string) => ({ kind: "download-extended", title, expiresAt }) };
    }
    default:
      return notFound();
  }
}

const duration = (value: Record<string, unknown>) => ({ amount: Number(value.amount), unit: value.unit as "days" | "months" });

async function caseStudyTitle(db: Database, orderId: string, position: number): Promise<string> {
  const line = await db
    .selectFrom("store_order_line")
    .select("title")
    .where("order_id", "=", orderId)
    .where("position", "=", position)
    .executeTakeFirst();
  return line?.title ?? "your case study";
}

/** Sends a prepared mail through the function the site sends it with; answers whether it went. */
async function sendAgain(db: Database, user: User, resend: Resend, now: Date): Promise<boolean> {
  try {
    switch (resend.kind) {
      case "verification":
        return await sendEmailConfirmation(user, user.email, resend.token, "verify");
      case "reset":
        await sendPasswordResetMail(user, resend.token);
        return true;
      case "receipt":
        return (await sendReceipts(db, billingMail(config(), mailer()), [resend.invoiceId], now)) === 1;
      case "order":
        return await sendOrderConfirmation(db, mailer(), resend.orderId, config().siteUrl, now);
    }
  } catch (error) {
    log.error("customer service: sending a mail again failed", { error });
    return false;
  }
}
