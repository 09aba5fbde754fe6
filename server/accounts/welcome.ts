import { footer, type BillingMail } from "~/server/billing/mail";
import type { MailMessage } from "~/server/adapters/mail";
import { log } from "~/server/log";
import { PLANS } from "~/server/subscriptions/plans";
import { formatUsd } from "~/shared/money";
import type { User } from "./users";

/**
 * What the new account holds: a free registration, with the article meter's monthly limits, or a
 * print subscription connected at subscriber registration, by its tier's caption.
 */
export type WelcomeKind = { kind: "registered"; meter: { registered: number; guest: number } } | { kind: "subscriber"; tier: string };

const WELCOME_SUBJECT = "Welcome to Meridian Review";

/** The cheapest plan, as "$12.00 a month". */
function cheapestPlan(): string {
  const cheapest = [...PLANS].sort((a, b) => a.priceCents / a.months - b.priceCents / b.months)[0]!;
  return `${formatUsd(cheapest.priceCents)} a ${cheapest.period}`;
}

/** The welcome a new account gets: what it gives, where to go next, and the publisher's footer. */
function welcomeMessage(mail: BillingMail, user: User, welcome: WelcomeKind): MailMessage {
  const site = mail.siteUrl;
  const gives =
    welcome.kind === "registered"
      ? [
          "Your free account gives you:",
          "",
          `- ${welcome.meter.registered} articles a month, where a visitor who has not registered reads ${welcome.meter.guest}`,
          `- My Library, to save articles, videos and podcasts and keep them in reading lists of your own: ${site}/my-library`,
          `- Topics to follow, whose latest pieces wait for you in one place: ${site}/topics`,
          "- Sharing any article with a colleague by e-mail or on your networks",
          "",
          `When you want to read without a limit, with the full magazine archive and PDF reprints, our plans start at ${cheapestPlan()}: ${site}/subscriptions`,
        ]
      : [
          `Your print subscription (${welcome.tier}) is now connected to this account: sign in on any device and every article, video and podcast your subscription includes is open to you, with the magazine archive, My Library and PDF reprints.`,
          "",
          `Save what you want to come back to in My Library: ${site}/my-library`,
          `Follow the topics you care about: ${site}/topics`,
        ];
  return {
    to: user.email,
    subject: WELCOME_SUBJECT,
    text: [
      `Hello ${user.firstName},`,
      "",
      "Thank you for joining Meridian Review. We publish ideas and evidence for people who run organisations, and we are glad to count you among our readers.",
      "",
      ...gives,
      "",
      `Our newsletters bring the best of the site to your inbox; choose the ones you want: ${site}/email-newsletters`,
      `Your name, password and e-mail preferences are in My Account: ${site}/my-account`,
      "",
      "Welcome aboard,",
      "The editors of Meridian Review",
      footer(mail),
    ].join("\n"),
  };
}

/**
 * Mails the welcome to an account just opened. The account's insert is the claim: only the request
 * that created it sends, once. A failure is logged, not thrown (the account is open either way) and
 * not retried: a welcome that comes late greets a reader who has long since arrived.
 */
export async function sendWelcome(mail: BillingMail, user: User, welcome: WelcomeKind): Promise<boolean> {
  try {
    await mail.mailer.send(welcomeMessage(mail, user, welcome));
    return true;
  } catch (error) {
    log.error("welcome mail failed", { error, userId: user.id });
    return false;
  }
}
