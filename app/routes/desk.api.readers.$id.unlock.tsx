import { mailer } from "~/server/adapters/mail";
import { billingMail } from "~/server/billing/mail";
import { keyActor } from "~/server/desk/api-keys";
import { sendServiceNotice, unlockAccount } from "~/server/desk/service";
import { unlockReader } from "~/app/lib/api/groups/admin-operations";
import { apiJson, apiRoute, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { operationsDb, overviewOf, readerJson, serviceKey, wrongState } from "~/app/lib/api/admin-operations.server";
import { config } from "~/app/lib/context/db.server";
import { REFUSED } from "~/app/lib/desk/readers.server";

/**
 * POST /desk/api/readers/{id}/unlock (the Admin API, ADR 088): the desk's Unlock, with its audit
 * row (the reason in it) and the reader's mail; the same Idempotency-Key again changes nothing.
 */
const route = apiRoute(
  serve(unlockReader, async (call) => {
    const db = await operationsDb(call);
    const userId = call.params.id;
    const key = serviceKey(call.key, "unlock", userId, call.headers["Idempotency-Key"]);
    const outcome = await unlockAccount(db, keyActor(call.key), { userId, key, reason: call.body.reason }, new Date());
    if (!outcome.ok) {
      if (outcome.reason === "not-found") return notFoundAnswer("reader");
      return wrongState(outcome.reason === "changed" ? "The account changed while it was being unlocked." : REFUSED[outcome.reason]);
    }
    if (!outcome.replay) await sendServiceNotice(billingMail(config(), mailer()), outcome.user, { kind: "unlocked" });
    const overview = await overviewOf(db, userId);
    return overview ? apiJson(readerJson(overview)) : notFoundAnswer("reader");
  }),
);

export const loader = route.loader;
export const action = route.action;
