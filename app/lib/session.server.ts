import { redirect } from "./responses.server";
import { createSession, endSession, userForSession } from "~/server/accounts/sessions";
import type { User } from "~/server/accounts/users";
import { mergeCartAtSignIn } from "./cart.server";
import { signedCookie } from "./cookies.server";
import { config, db } from "./db.server";

/** The session cookie: a random token, signed. */
const sessionCookie = signedCookie("mr_session", () => config().SESSION_DAYS * 86_400);

export async function sessionToken(request: Request): Promise<string | undefined> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

export async function currentUser(request: Request): Promise<User | undefined> {
  const token = await sessionToken(request);
  return token ? userForSession(await db(), token) : undefined;
}

/** The signed-in reader, or a redirect to sign-in that comes back here afterwards. */
export async function requireUser(request: Request): Promise<User> {
  const user = await currentUser(request);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * Signs the user in with a new session id (any session the browser held ends) and moves the
 * browser's guest cart into theirs; returns Set-Cookie.
 */
export async function startSession(request: Request, userId: string): Promise<string> {
  const database = await db();
  const previous = await sessionToken(request);
  if (previous) await endSession(database, previous);
  await mergeCartAtSignIn(request, userId);
  const token = await createSession(database, userId, config().SESSION_DAYS);
  return sessionCookie().serialize(token);
}

/** Ends the browser's session on the server; returns the Set-Cookie that clears it. */
export async function endCurrentSession(request: Request): Promise<string> {
  const token = await sessionToken(request);
  if (token) await endSession(await db(), token);
  return sessionCookie().serialize("", { maxAge: 0 });
}
