import crypto from "node:crypto";
import { signedCookie } from "~/app/lib/http/cookies.server";

/**
 * The visitor cookie: a random id that keys a guest's meter and dismissals on the server. It is
 * signed, so an edited id is simply not recognised (the reader is a fresh visitor again).
 */
const visitorCookie = signedCookie("mr_visitor", 2 * 365 * 86_400);

const ID = /^[A-Za-z0-9_-]{22}$/;

/** The visitor's id, if the request carries a valid visitor cookie. */
export async function knownVisitorId(request: Request): Promise<string | undefined> {
  const value = await visitorCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && ID.test(value) ? value : undefined;
}

/** A new visitor id and the Set-Cookie that keeps it. */
export async function newVisitor(): Promise<{ id: string; setCookie: string }> {
  const id = crypto.randomBytes(16).toString("base64url");
  return { id, setCookie: await visitorCookie().serialize(id) };
}
