import crypto from "node:crypto";
import { promisify } from "node:util";
import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id at OWASP's first recommendation (ADR 051): 19 MiB, 2 passes, 1 lane. A hash is kept
 * as its PHC string ("$argon2id$v=19$m=19456,t=2,p=1$salt$key"), which names its own cost, so
 * the cost can be raised later without breaking the hashes already made.
 */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize("NFKC"), ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const typed = password.normalize("NFKC");
  if (stored.startsWith("$argon2id$")) return verify(stored, typed).catch(() => false);
  if (stored.startsWith("scrypt$")) return verifyScrypt(typed, stored);
  return false;
}

const ARGON2_COST = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/;

/** Whether a hash that has just verified should be made again, at today's cost. */
export function needsRehash(stored: string): boolean {
  const cost = ARGON2_COST.exec(stored);
  return !cost || Number(cost[1]) < ARGON2.memoryCost || Number(cost[2]) < ARGON2.timeCost;
}

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** A hash made before ADR 051: "scrypt$N$r$p$salt$key", replaced at its owner's next sign-in. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split("$");
  if (!salt || !key) return false;
  const expected = Buffer.from(key, "base64");
  const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
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
