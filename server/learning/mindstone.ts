import crypto from "node:crypto";

// The token a subscriber takes to the Mindstone learning platform (spec 7: GET
// /api/mindstone/userToken answers `mindstoneJWT`). Mindstone holds the same secret and checks
// the signature; `sub` names the reader.

/** How long a token is good for: long enough for a session on the platform, short enough to be worthless once leaked. */
export const MINDSTONE_TOKEN_SECONDS = 60 * 60;

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A JWT (RFC 7519) signed with HMAC SHA-256: `sub` the reader's id, `iat` now, `exp` an hour on. */
export function mindstoneToken(userId: string, secret: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ sub: userId, iat, exp: iat + MINDSTONE_TOKEN_SECONDS }));
  const signature = crypto.createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}
