import crypto from "node:crypto";

/** A random secret for a cookie or a link (256 bits, URL-safe). */
export function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** What is stored in place of a token, so a copy of the database opens no session or link. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
