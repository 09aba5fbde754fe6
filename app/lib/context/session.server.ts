import { createSession, endSession } from "~/server/accounts/sessions";
import { config } from "~/server/config";
import { mergeCartAtSignIn } from "~/app/lib/store/cart.server";
import { signedCookie } from "~/app/lib/http/cookies.server";
import type { RequestContext } from "./request-context.server";

/** The session cookie: a random token, signed. */
const sessionCookie = signedCookie("mr_session", () => config().SESSION_DAYS * 86_400);

export async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * Signs the user in with a new session id (any session the browser held ends) and moves the
 * browser's guest cart into theirs; returns Set-Cookie.
 */
export async function startSession(asker: RequestContext, userId: string): Promise<string> {
  const database = await asker.db();
  const previous = await asker.sessionToken();
  if (previous) await endSession(database, previous);
  await mergeCartAtSignIn(asker, userId);
  const token = await createSession(database, userId, config().SESSION_DAYS, new Date(), asker.userAgent);
  return sessionCookie().serialize(token);
}

/** Ends the browser's session on the server; returns the Set-Cookie that clears it. */
export async function endCurrentSession(asker: RequestContext): Promise<string> {
  const token = await asker.sessionToken();
  if (token) await endSession(await asker.db(), token);
  return sessionCookie().serialize("", { maxAge: 0 });
}
