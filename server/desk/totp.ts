import crypto from "node:crypto";

// Time-based one-time passwords, RFC 6238 over HOTP (RFC 4226): HMAC-SHA-1, 30-second steps,
// 6 digits, the secret shown to people in base32 (RFC 4648) as authenticator apps expect. The
// clock is always passed in, so tests choose the time.

export const STEP_SECONDS = 30;
export const DIGITS = 6;
/** A code from the step before or after the server's is accepted too: phones' clocks drift. */
export const ALLOWED_DRIFT_STEPS = 1;
/** 160 bits, the length RFC 4226 recommends for an HMAC-SHA-1 key. */
const SECRET_BYTES = 20;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 as people type it: any case, spaces and padding ignored. Null for anything else. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value === -1) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** A new secret for an authenticator app, in base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(SECRET_BYTES));
}

/** The time step a moment falls in. */
export function timeStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / STEP_SECONDS);
}

/** The HOTP value for a counter (RFC 4226 §5.3, dynamic truncation), as `digits` decimal digits. */
export function hotp(key: Uint8Array, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code an authenticator app shows at this moment for a base32 secret. */
export function totpCode(secret: string, now: Date): string {
  return hotp(base32Decode(secret) ?? new Uint8Array(), timeStep(now));
}

/**
 * The time step a typed code belongs to, within the allowed drift of `now`, or null. Every
 * candidate is compared in constant time, and all of them are, so the answer's timing does not
 * tell which step (if any) matched.
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const key = base32Decode(secret);
  if (!key || !new RegExp(`^\\d{${DIGITS}}$`).test(code)) return null;
  const current = timeStep(now);
  let found: number | null = null;
  for (let drift = -ALLOWED_DRIFT_STEPS; drift <= ALLOWED_DRIFT_STEPS; drift++) {
    const step = current + drift;
    if (crypto.timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The otpauth:// address an authenticator app reads from the QR code (Google Authenticator's key URI format). */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({ secret, issuer, algorithm: "SHA1", digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, "%20")}`;
}
