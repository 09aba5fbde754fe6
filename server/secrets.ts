import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "./config";

export interface Secrets {
  /** Signs the session and visitor cookies. */
  sessionSecret: string;
  /** Signs the built-in sandbox payment provider's completion callbacks. */
  paymentWebhookSecret: string;
}

interface GivenSecrets {
  SESSION_SECRET?: string;
  PAYMENT_WEBHOOK_SECRET?: string;
}

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
  const secrets: Secrets = {
    sessionSecret: given.SESSION_SECRET ?? stored.sessionSecret ?? fresh(),
    paymentWebhookSecret: given.PAYMENT_WEBHOOK_SECRET ?? stored.paymentWebhookSecret ?? fresh(),
  };
  const toStore = {
    ...stored,
    ...(given.SESSION_SECRET ? {} : { sessionSecret: secrets.sessionSecret }),
    ...(given.PAYMENT_WEBHOOK_SECRET ? {} : { paymentWebhookSecret: secrets.paymentWebhookSecret }),
  };
  if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
    // Written beside the file and renamed over it, so a reader never sees half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(toStore, null, 2), { mode: 0o600 });
    fs.renameSync(temporary, file);
    // Two instances starting at once on one data folder: whichever file landed last is the one
    // both go on with.
    const landed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
    return {
      sessionSecret: given.SESSION_SECRET ?? landed.sessionSecret ?? secrets.sessionSecret,
      paymentWebhookSecret: given.PAYMENT_WEBHOOK_SECRET ?? landed.paymentWebhookSecret ?? secrets.paymentWebhookSecret,
    };
  }
  return secrets;
}

let current: Secrets | undefined;

export function secrets(): Secrets {
  current ??= loadSecrets(config().dataDir, config());
  return current;
}
