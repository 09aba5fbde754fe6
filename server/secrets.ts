import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "./config";

export interface Secrets {
  /** Signs the session and visitor cookies. */
  sessionSecret: string;
  /** Signs the built-in sandbox payment provider's completion callbacks. */
  paymentWebhookSecret: string;
  /** Signs the tokens subscribers take to the Mindstone learning platform (GET /api/mindstone/userToken). */
  mindstoneJwtSecret: string;
}

/** Each secret and the environment variable that gives it. */
const VARIABLES = {
  sessionSecret: "SESSION_SECRET",
  paymentWebhookSecret: "PAYMENT_WEBHOOK_SECRET",
  mindstoneJwtSecret: "MINDSTONE_JWT_SECRET",
} as const satisfies Record<keyof Secrets, string>;

type GivenSecrets = Partial<Record<(typeof VARIABLES)[keyof Secrets], string>>;

const NAMES = Object.keys(VARIABLES) as (keyof Secrets)[];
const FILE = "secrets.json";
const fresh = () => crypto.randomBytes(32).toString("base64url");

/**
 * Secrets from the environment, else from DATA_DIR/secrets.json, where any that are missing are
 * written with fresh random values (mode 0600, never committed: data/ is ignored). Instances
 * behind one load balancer must all be given the same secrets.
 */
export function loadSecrets(dataDir: string, given: GivenSecrets): Secrets {
  const file = path.join(dataDir, FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    for (const [name, value] of Object.entries(stored)) {
      if (typeof value !== "string" || value.length < 32) {
        throw new Error(`${file} holds no usable ${name}; delete it to generate new secrets (this signs everyone out)`);
      }
    }
  }
  const pick = (from: Partial<Secrets>, fallback: (name: keyof Secrets) => string) =>
    Object.fromEntries(NAMES.map((name) => [name, given[VARIABLES[name]] ?? from[name] ?? fallback(name)])) as unknown as Secrets;
  const secrets = pick(stored, fresh);
  const toStore: Partial<Secrets> = { ...stored };
  for (const name of NAMES) if (!given[VARIABLES[name]]) toStore[name] = secrets[name];
  if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
    // Written beside the file and renamed over it, so a reader never sees half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(toStore, null, 2), { mode: 0o600 });
    fs.renameSync(temporary, file);
    // Two instances starting at once on one data folder: whichever file landed last is the one
    // both go on with.
    const landed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    return pick(landed, (name) => secrets[name]);
  }
  return secrets;
}

let current: Secrets | undefined;

export function secrets(): Secrets {
  current ??= loadSecrets(config().dataDir, config());
  return current;
}
