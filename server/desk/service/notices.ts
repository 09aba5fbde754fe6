import { footer, longDate, type BillingMail } from "~/server/billing/mail";
import type { User } from "~/server/accounts/users";
import { log } from "~/server/log";

// What customer service's actions tell the reader (ADR 087). A notice that fails to send is
// logged and never undoes the change it reports.

export type ServiceNotice =
  | { kind: "unlocked" }
  | { kind: "restricted" }
  | { kind: "unrestricted" }
  | { kind: "print-linked"; accountNumber: string }
  | { kind: "print-unlinked"; accountNumber: string }
  | { kind: "extended"; accessEnd: string }
  | { kind: "comp"; tier: string; accessEnd: string }
  | { kind: "download-extended"; title: string; expiresAt: string };

const SITE = "Meridian Review";

function message(notice: ServiceNotice, mail: BillingMail): { subject: string; lines: string[] } {
  switch (notice.kind) {
    case "unlocked":
      return {
        subject: `Your ${SITE} account is unlocked`,
        lines: [`Customer Service has unlocked your account: you can sign in again at ${mail.siteUrl}/sign-in.`],
      };
    case "restricted":
      return {
        subject: `Your ${SITE} account is restricted`,
        lines: ["We're having trouble verifying your account. Please contact our Customer Service team for assistance."],
      };
    case "unrestricted":
      return {
        subject: `Your ${SITE} account is open again`,
        lines: [`Customer Service has lifted the restriction on your account: you can sign in again at ${mail.siteUrl}/sign-in.`],
      };
    case "print-linked":
      return {
        subject: `Your print subscription is linked to your ${SITE} account`,
        lines: [`Customer Service has linked print subscription ${notice.accountNumber} to your account: sign in to read as a subscriber.`],
      };
    case "print-unlinked":
      return {
        subject: `Your print subscription was unlinked from your ${SITE} account`,
        lines: [`Customer Service has unlinked print subscription ${notice.accountNumber} from your account.`],
      };
    case "extended":
      return {
        subject: `Your ${SITE} subscription was extended`,
        lines: [`Customer Service has extended your subscription. Your access now runs until ${longDate(notice.accessEnd)}.`],
      };
    case "comp":
      return {
        subject: `A complimentary ${SITE} subscription for you`,
        lines: [
          `Customer Service has given you a complimentary ${notice.tier} subscription, at no charge, until ${longDate(notice.accessEnd)}.`,
          "It ends by itself on that day: nothing will be charged.",
        ],
      };
    case "download-extended":
      return {
        subject: "More time for your case study downloads",
        lines: [
          `Customer Service has extended your access to "${notice.title}" until ${longDate(notice.expiresAt)}.`,
          `Your orders and downloads: ${mail.siteUrl}/my-account`,
        ],
      };
  }
}

export async function sendServiceNotice(mail: BillingMail, user: User, notice: ServiceNotice): Promise<void> {
  const { subject, lines } = message(notice, mail);
  try {
    await mail.mailer.send({ to: user.email, subject, text: [`Hello ${user.firstName},`, "", ...lines, footer(mail)].join("\n") });
  } catch (error) {
    log.error(`service notice "${subject}" failed`, { error });
  }
}
