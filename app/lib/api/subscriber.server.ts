import { z } from "zod";
import type { User } from "~/server/accounts/users";
import { findCheckout, type SubscriptionCheckout } from "~/server/subscriptions/checkout";
import { tierOf } from "~/server/subscriptions/tiers";
import { db } from "~/app/lib/context/db.server";
import { completeCheckout } from "~/app/lib/subscriptions/checkout.server";
import {
  registerSubscriberFlow,
  subscribeFlow,
  subscriberLookupFlow,
  subscriberState,
} from "~/app/lib/subscriptions/print-subscriber.server";
import { accountProblem } from "./account-problem.server";
import { endpoint } from "./contract";
import type { Call } from "./handler.server";
import { apiError, apiJson, invalidInput } from "./handler.server";
import type * as subscriber from "./groups/subscriber";
import { register, registrationBody, registrationId } from "./groups/subscriber";

// The subscriber group's handlers (app/lib/api/groups/subscriber.ts): each calls the flows the
// subscriber registration page and the subscription checkout's pages call, and answers JSON.

const VERIFY_EMAIL = (email: string) =>
  `Before we connect a subscription we need to know that ${email} is yours. We have sent a link to it: follow the link, then try again.`;

/** POST /api/user/subscriber/search: the subscriber lookup. */
export async function searchSubscriber({ request, context, body }: Call<typeof subscriber.search>): Promise<Response> {
  const found = await subscriberLookupFlow(request, context, body);
  if (!found.ok) return accountProblem(found.problem);
  const { subscription, linked, userAccountExists } = found.lookup;
  return apiJson({
    active: true,
    subscriptions: [
      {
        accountNumber: subscription.accountNumber,
        subscriptionCode: subscription.subscriptionCode,
        tier: subscription.tier,
        accessStart: subscription.accessStart,
        accessEnd: subscription.accessEnd,
      },
    ],
    firstName: subscription.firstName,
    lastName: subscription.lastName,
    new: !linked,
    userAccountExists,
  });
}

/**
 * /api/user/subscriber/register as its route serves it: the handler parses the body with the
 * declared schema itself, so that a refused body carries the registration headers too (apiRoute
 * would answer it without them). The declaration documents the schema.
 */
export const registerAsServed = endpoint({ ...register, body: z.unknown() });

/** Spec: "a response header decides success"; the client's id comes back on every answer. */
function registrationAnswer(response: Response, outcome: "success" | "failed", id: unknown): Response {
  response.headers.set("X-Subscriber-Registration", outcome);
  const echoed = registrationId.safeParse(id);
  if (echoed.success) response.headers.set("X-Registration-Id", echoed.data);
  return response;
}

/** POST /api/user/subscriber/register: the subscriber registration page's flow. */
export async function registerSubscriber({ request, context, body }: Call<typeof registerAsServed>): Promise<Response> {
  const id = body && typeof body === "object" ? (body as { id?: unknown }).id : undefined;
  const parsed = registrationBody.safeParse(body);
  if (!parsed.success) return registrationAnswer(invalidInput(parsed.error), "failed", id);
  const outcome = await registerSubscriberFlow(request, context, parsed.data);
  if (!outcome.ok) return registrationAnswer(accountProblem(outcome.problem), "failed", id);
  return registrationAnswer(
    apiJson(await subscribedAccount(outcome.user), { status: 201, headers: { "Set-Cookie": outcome.setCookie } }),
    "success",
    id,
  );
}

async function subscribedAccount(user: User) {
  return { id: user.id, name: `${user.firstName} ${user.lastName}`, email: user.email, subscriber: await subscriberState(user.id) };
}

/** POST /api/user/subscribe: an existing account connects its print subscription. */
export async function subscribe({ request, context, body }: Call<typeof subscriber.subscribe>): Promise<Response> {
  const outcome = await subscribeFlow(request, context, body);
  if (!outcome.ok) return accountProblem(outcome.problem);
  if (outcome.outcome === "verification-sent")
    return apiJson({ code: "verify_email", message: VERIFY_EMAIL(outcome.user.email) }, { status: 202 });
  return apiJson(await subscribedAccount(outcome.user), { headers: { "Set-Cookie": outcome.setCookie } });
}

/** GET /service/user/userRef: the reader as the payment provider and analytics know them. */
export function userRef({ user }: Call<typeof subscriber.userRef>): Promise<Response> {
  return Promise.resolve(apiJson({ userRef: user.email, guid: user.id }));
}

/** POST /api/user/subscribe/checkoutComplete: what coming back from the payment provider does. */
export async function checkoutComplete({ user, body }: Call<typeof subscriber.checkoutComplete>): Promise<Response> {
  const checkout = await completeCheckout(user.id, body.checkoutId);
  if (!checkout) return apiError(404, "no_such_checkout", "No such checkout.");
  const active = checkout.status === "activated";
  return apiJson({ status: active ? "active" : "pending", subscriber: active ? await subscriberState(user.id) : null, uid: checkout.id });
}

/** GET /api/digitaldata/piano/transactionComplete: a completed purchase, for analytics. */
export async function transactionComplete({ user, query }: Call<typeof subscriber.transactionComplete>): Promise<Response> {
  const checkout = await findCheckout(await db(), query.uid, user.id);
  if (!checkout?.activatedAt) return apiError(404, "no_such_transaction", "No such transaction.");
  return apiJson(transaction(checkout, checkout.activatedAt));
}

/** The receipt's facts about a completed purchase, as analytics records a transaction. */
function transaction(checkout: SubscriptionCheckout, completedAt: string) {
  return {
    transactionId: checkout.id,
    plan: checkout.plan.name,
    planId: checkout.plan.id,
    tier: tierOf(checkout.plan.roleCode)?.name ?? checkout.plan.name,
    term: checkout.plan.period,
    price: checkout.amountCents / 100,
    currency: "USD",
    date: completedAt,
  };
}
