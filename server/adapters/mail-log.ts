import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { normalizeEmail } from "~/server/accounts/users";
import type { SentMail } from "./mail";

// The mail adapter's log (ADR 087): what was sent to whom and when, for customer service.

/** Records one message, a row per recipient (an address like "Name <a@b>" is kept as its address). */
export async function logMail(db: Database, sent: SentMail): Promise<void> {
  const rows = sent.recipients.map((to) => ({
    id: crypto.randomUUID(),
    recipient: normalizeEmail(/<([^>]+)>\s*$/.exec(to)?.[1] ?? to),
    subject: sent.subject,
    sent_at: sent.at.toISOString(),
    message_id: sent.messageId,
  }));
  if (rows.length > 0) await db.insertInto("mail_log").values(rows).execute();
}

export interface LoggedMail {
  subject: string;
  sentAt: string;
}

/** The newest mail sent to an address. */
export async function mailSentTo(db: Database, email: string, limit = 25): Promise<LoggedMail[]> {
  const rows = await db
    .selectFrom("mail_log")
    .select(["subject", "sent_at"])
    .where("recipient", "=", normalizeEmail(email))
    .orderBy("sent_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ subject: r.subject, sentAt: r.sent_at }));
}
