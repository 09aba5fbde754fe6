import type { AppLoadContext } from "@remix-run/node";
import type { User } from "~/server/accounts/users";
import { mailer } from "~/server/adapters/mail";
import { billingMail } from "~/server/billing/mail";
import { log } from "~/server/log";
import {
  deleteAccount,
  deletionBlocker,
  exportPersonalData,
  sendAccountDeleted,
  type DeletionBlocker,
  type PersonalData,
} from "~/server/privacy";
import { currentPasswordFlow, type AccountProblem } from "~/app/lib/accounts/flows.server";
import { formatPublished } from "~/app/lib/content/format";
import { config, db } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { endCurrentSession } from "~/app/lib/context/session.server";
import { payments } from "~/app/lib/store/payments.server";
import { pastDueBlocks, pendingOrderBlocks, PROVIDER_UNAVAILABLE, renewingPlanBlocks, STAFF_CANNOT_DELETE } from "./messages";

// My account's privacy pages (ADR 089): server/privacy holds the rules; this reads the request.

/** Everything the site holds about the signed-in reader. */
export async function ownData(user: User): Promise<PersonalData> {
  return exportPersonalData(await db(), { userId: user.id, email: user.email });
}

/** What keeps the account from being deleted now, as the page says it, with where to go about it. */
export interface Blocker {
  message: string;
  link: { to: string; text: string } | null;
}

export function describeBlocker(blocker: DeletionBlocker): Blocker {
  switch (blocker.reason) {
    case "staff":
      return { message: STAFF_CANNOT_DELETE, link: null };
    case "renewing":
      return {
        message: renewingPlanBlocks(blocker.plan, formatPublished(blocker.accessEnd)),
        link: { to: "/my-account/billing/cancel", text: "Cancel your subscription" },
      };
    case "past-due":
      return {
        message: pastDueBlocks(blocker.graceEnd && formatPublished(blocker.graceEnd)),
        link: { to: "/my-account/billing", text: "Subscription and billing" },
      };
    case "pending-order":
      return {
        message: pendingOrderBlocks(blocker.orderNumber),
        link: { to: `/order/${blocker.orderId}`, text: `Order ${blocker.orderNumber}` },
      };
  }
}

export async function accountBlocker(user: User): Promise<Blocker | null> {
  const blocker = await deletionBlocker(await db(), user.id);
  return blocker && describeBlocker(blocker);
}

export type DeleteOutcome = { ok: true; setCookie: string } | { ok: false; problem: AccountProblem; blocker?: Blocker };

/**
 * Deletes the signed-in reader's account once their password checks out (the current-password
 * question's rate limit and lockout, as sign-in's), mails the confirmation to the address it
 * had, and answers the Set-Cookie that clears this browser's session (every session is gone).
 */
export async function deleteOwnAccount(request: Request, context: AppLoadContext, user: User, password: string): Promise<DeleteOutcome> {
  const wrong = await currentPasswordFlow(request, context, user, password);
  if (wrong) return { ok: false, problem: wrong };
  let outcome;
  try {
    outcome = await deleteAccount(await db(), user.id, new Date(), await payments());
  } catch (error) {
    log.error("deleting an account failed", { error });
    return { ok: false, problem: { status: 503, code: "provider_unavailable", message: PROVIDER_UNAVAILABLE } };
  }
  if (!outcome.ok) {
    if ("blocker" in outcome) {
      const blocker = describeBlocker(outcome.blocker);
      return { ok: false, problem: { status: 409, code: "blocked", message: blocker.message }, blocker };
    }
    // Deleted a moment ago by another request of theirs.
    return { ok: true, setCookie: await endCurrentSession(requestContext({ request, context })) };
  }
  log.info("account deleted", { account: outcome.deleted.userId });
  await sendAccountDeleted(billingMail(config(), mailer()), outcome.deleted);
  return { ok: true, setCookie: await endCurrentSession(requestContext({ request, context })) };
}
