import type { Database } from "~/server/db/connection";
import { findPlan, PLANS } from "~/server/subscriptions/plans";
import { footer, longDate, type BillingMail } from "./mail";
import { billingAddressOf, priceWithTax, subscriptionTax } from "./tax";

/** How long before an annual plan renews its subscriber is reminded (the issue's 7 days). */
export const REMINDER_DAYS = 7;

const ANNUAL_PLAN_IDS = PLANS.filter((plan) => plan.period === "year").map((plan) => plan.id);

/**
 * Mails the reminder automatic-renewal laws ask for before a yearly charge: for each plan that will
 * renew (billing_status active) within REMINDER_DAYS of `at`, the provider's time, and is annual or
 * is to become annual at that renewal, once per period. It names what the renewal will charge: the
 * plan chosen for the next period (scheduled_plan_id) if there is one. The claim is
 * `reminder_sent_for`, set to the period's end by a conditional update, so two runs mail once and
 * the next period, with its new end, is reminded of again; a failed send gives the claim back for
 * the next run. Answers how many went.
 */
export async function sendRenewalReminders(db: Database, mail: BillingMail, at: Date): Promise<number> {
  const horizon = new Date(at.getTime() + REMINDER_DAYS * 86_400_000).toISOString();
  const due = await db
    .selectFrom("subscription")
    .innerJoin("app_user", "app_user.id", "subscription.user_id")
    .select([
      "subscription.id",
      "subscription.plan_id",
      "subscription.scheduled_plan_id",
      "subscription.access_end",
      "subscription.reminder_sent_for",
      "subscription.card_brand",
      "subscription.card_last4",
      "subscription.billing_country",
      "subscription.billing_region",
      "app_user.email",
      "app_user.first_name",
    ])
    .where("subscription.billing_status", "=", "active")
    .where("subscription.status", "=", "active")
    .where((eb) => eb.or([eb("subscription.plan_id", "in", ANNUAL_PLAN_IDS), eb("subscription.scheduled_plan_id", "in", ANNUAL_PLAN_IDS)]))
    .where("subscription.access_end", ">", at.toISOString())
    .where("subscription.access_end", "<=", horizon)
    .where((eb) =>
      eb.or([
        eb("subscription.reminder_sent_for", "is", null),
        eb("subscription.reminder_sent_for", "<>", eb.ref("subscription.access_end")),
      ]),
    )
    .execute();
  let sent = 0;
  for (const row of due) {
    const claimed = await db
      .updateTable("subscription")
      .set({ reminder_sent_for: row.access_end })
      .where("id", "=", row.id)
      .where("access_end", "=", row.access_end)
      .where("billing_status", "=", "active")
      .where((eb) =>
        row.reminder_sent_for === null ? eb("reminder_sent_for", "is", null) : eb("reminder_sent_for", "=", row.reminder_sent_for),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const current = findPlan(row.plan_id ?? "");
    const next = findPlan(row.scheduled_plan_id ?? row.plan_id ?? "");
    if (!current || !next) throw new Error(`subscription ${row.id} renews without a plan`);
    const renews = longDate(row.access_end);
    const term = next.period === "year" ? "another year" : "another month";
    try {
      await mail.mailer.send({
        to: row.email,
        subject: `Your Meridian Review ${current.name} subscription renews on ${renews}`,
        text: [
          `Hello ${row.first_name},`,
          "",
          next.id === current.id
            ? `Your ${current.name} subscription renews for ${term} on ${renews}.`
            : `Your ${current.name} subscription renews for ${term} on ${renews}, as ${next.name}, the plan you chose.`,
          `On that day we will charge ${priceWithTax(next.priceCents, subscriptionTax(next.priceCents, billingAddressOf(row)))} to your ${row.card_brand ? `${row.card_brand} card` : "card"} ending in ${row.card_last4 ?? "----"}.`,
          "",
          "You do not need to do anything to keep reading.",
          "",
          `If you do not want it to renew, cancel before ${renews} on Subscription and billing: ${mail.siteUrl}/my-account/billing/cancel`,
          `You will not be charged again, and you keep full access until ${renews}.`,
          "",
          `Questions about your subscription? Subscriber help: ${mail.siteUrl}/subscriber-help`,
          footer(mail),
        ].join("\n"),
      });
      sent++;
    } catch (error) {
      await db
        .updateTable("subscription")
        .set({ reminder_sent_for: row.reminder_sent_for })
        .where("id", "=", row.id)
        .where("reminder_sent_for", "=", row.access_end)
        .execute();
      throw error;
    }
  }
  return sent;
}
