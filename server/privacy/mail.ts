import type { BillingMail } from "~/server/billing/mail";
import { log } from "~/server/log";
import type { DeletedAccount } from "./erase";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The confirmation that an account was deleted (ADR 089). */
export function accountDeletedMessage(deleted: DeletedAccount, mail: BillingMail): { subject: string; text: string } {
  const kept = [
    ...(deleted.ordersKept > 0 ? [plural(deleted.ordersKept, "order")] : []),
    ...(deleted.invoicesKept > 0 ? [plural(deleted.invoicesKept, "subscription invoice")] : []),
  ];
  return {
    subject: "Your Meridian Review account has been deleted",
    text: [
      `Hello ${deleted.firstName},`,
      "",
      "As you asked, we have deleted your Meridian Review account and the personal data that went with it: your profile, sign-ins, follows and newsletter sign-ups, My Library, notes, histories, gift links and the record of the mail we sent you.",
      ...(kept.length > 0
        ? [
            "",
            `The law requires us to keep the records of what you bought, so we keep ${kept.join(" and ")} in our books, made out to your name and address but no longer tied to any account.`,
          ]
        : []),
      "",
      "We no longer hold this e-mail address: this is the last message we send you. You can register again with it at any time.",
      "",
      "--",
      mail.publisher.name,
      ...mail.publisher.addressLines,
    ].join("\n"),
  };
}

/**
 * Mails the confirmation to the address the account had. The mail log, which the deletion has
 * just emptied of that address, does not record it. A failure is logged: the deletion stands.
 */
export async function sendAccountDeleted(mail: BillingMail, deleted: DeletedAccount): Promise<boolean> {
  try {
    await mail.mailer.send({ to: deleted.email, ...accountDeletedMessage(deleted, mail), unlogged: true });
    return true;
  } catch (error) {
    log.error("account deleted mail failed", { error });
    return false;
  }
}
