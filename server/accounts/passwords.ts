import crypto from "node:crypto";
import { promisify } from "node:util";
import { config } from "../config";

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// OWASP's minimum for scrypt is N = 2^17, r = 8, p = 1 (128 MiB per hash): the default of
// PASSWORD_SCRYPT_LOG2N. Each hash records its own parameters, so any cost verifies.
const cost = () => ({ N: 2 ** config().PASSWORD_SCRYPT_LOG2N, r: 8, p: 1 });
const KEY_LENGTH = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

/** "scrypt$N$r$p$salt$key", so the parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const { N, r, p } = cost();
  const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEMORY });
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return crypto.timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;

/** Spends the time of one verification, so an unknown address answers as slowly as a known one. */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  await verifyPassword(password, await decoy);
  return false;
}
