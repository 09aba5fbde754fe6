import os from "node:os";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no", ""])
  .default("")
  .transform((v) => ["1", "true", "on", "yes"].includes(v));

/** A switch that is on unless set to 0, false, off or no. */
const flagOn = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no"])
  .default("1")
  .transform((v) => ["1", "true", "on", "yes"].includes(v));

function positiveInt(fallback: number) {
  return z.coerce.number().int().positive().max(1_000_000_000).default(fallback);
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  // The production server (server/http): where it listens, and how long a stop waits for
  // requests in flight.
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /** One JSON line per request answered (server/log.ts); off when the balancer's log is enough. */
  LOG_REQUESTS: flagOn,
  /** Memory each server process gives the guest-page cache (ADR 034); 0 turns it off. */
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  /** How long a cached page may be served; loaders run on every hit, so this bounds only what rendering itself reads (the year in the footer). */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Server processes sharing the port (node:cluster); by default one per core. */
  WEB_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(() => os.availableParallelism()),
  /**
   * Scheduled-jobs processes beside the server processes (ADR 069); by default as many as
   * WEB_CONCURRENCY. 0 on instances that only serve pages, when another instance runs the jobs.
   */
  JOBS_PROCESSES: z
    .literal("")
    .transform(() => undefined)
    .or(z.coerce.number().int().min(0).max(256))
    .optional(),
  /**
   * The jobs processes' CPU niceness, their PostgreSQL backends' too (ADR 069): by default the
   * lowest priority, so that they get only what the pages leave.
   */
  JOBS_NICENESS: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce.number().int().min(0, "JOBS_NICENESS must be 0 to 19").max(19, "JOBS_NICENESS must be 0 to 19").default(19),
  ),
  DATA_DIR: z.string().min(1).default("data"),
  /** Where the seed content, the charts, the toolkits' texts and the media files are read from. */
  CONTENT_DIR: z.string().min(1).default("content"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "DATABASE_SCHEMA must be a lowercase SQL identifier")
    .optional(),
  // PostgreSQL connections per server process (ADR 053).
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1, "DATABASE_POOL_SIZE must be 1 to 100")
    .max(100, "DATABASE_POOL_SIZE must be 1 to 100")
    .default(20),
  /**
   * The public origin of every absolute link (mail, the payment provider, feeds, canonical URLs);
   * unset or empty, the server's own address (defaultSiteUrl).
   */
  SITE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "SITE_URL must be an http:// or https:// address")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  MAINTENANCE_MODE: flag,
  STREAM_UNLIMITED_LOADING: flag,
  SEED_ARTICLES: z.coerce.number().int().min(0).max(1_000_000).default(0),

  // Secrets: generated into DATA_DIR on first start when not given (see server/secrets.ts).
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  PAYMENT_WEBHOOK_SECRET: z.string().min(32, "PAYMENT_WEBHOOK_SECRET must be at least 32 characters").optional(),
  // Signs the subscribers' Mindstone tokens (HS256): the same value must be set at Mindstone.
  MINDSTONE_JWT_SECRET: z.string().min(32, "MINDSTONE_JWT_SECRET must be at least 32 characters").optional(),

  // Accounts: sign-in lockout, rate limits (per client address and per account), sessions.
  LOGIN_MAX_FAILURES: positiveInt(5),
  LOGIN_LOCKOUT_SECONDS: positiveInt(15 * 60),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(15 * 60),
  RATE_LIMIT_PER_IP: positiveInt(50),
  RATE_LIMIT_PER_ACCOUNT: positiveInt(10),
  SESSION_DAYS: positiveInt(30),
  /** Header that carries the client address when behind a proxy (e.g. x-forwarded-for). */
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i)
    .optional(),

  // Mail: .eml files under DATA_DIR/mail unless SMTP_URL is given.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().default("Meridian Review <no-reply@meridian-review.example>"),

  // Uploaded images (ADR 077): kept in the database unless an S3-compatible bucket is given,
  // reached at IMAGE_BUCKET_URL/IMAGE_BUCKET_NAME/… with requests signed by the key below.
  IMAGE_BUCKET_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "IMAGE_BUCKET_URL must be an http:// or https:// address")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  IMAGE_BUCKET_NAME: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "IMAGE_BUCKET_NAME must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)",
    )
    .optional(),
  IMAGE_BUCKET_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, "IMAGE_BUCKET_REGION must be a region name such as eu-west-1")
    .default("us-east-1"),
  IMAGE_BUCKET_ACCESS_KEY_ID: z.string().min(1).optional(),
  IMAGE_BUCKET_SECRET_ACCESS_KEY: z.string().min(1).optional(),

  // Captcha (reCAPTCHA v3): off unless a secret is given.
  CAPTCHA_SECRET: z.string().optional(),
  CAPTCHA_SITE_KEY: z.string().optional(),
  CAPTCHA_SCRIPT_URL: z.string().url().optional(),
  CAPTCHA_VERIFY_URL: z.string().url().default("https://www.google.com/recaptcha/api/siteverify"),
  CAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),

  // Geo: a trusted CDN country header, else the GeoIP2 web service when an account is given.
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i)
    .optional(),
  GEOIP_ACCOUNT_ID: z.string().optional(),
  GEOIP_LICENSE_KEY: z.string().optional(),
  GEOIP_URL: z.string().url().default("https://geoip.maxmind.com/geoip/v2.1/country"),
  GEOIP_TIMEOUT_MS: positiveInt(1500),

  // Metered paywall and offers (see docs/decisions/011-metered-paywall-decided-on-the-server.md).
  METER_GUEST_LIMIT: positiveInt(4),
  METER_ASCEND_LIMIT: positiveInt(3),
  METER_REGISTERED_LIMIT: positiveInt(8),
  /** Guest reads a month from one address (an IPv6 /64) across all its visitor cookies; 0 turns it off (ADR 026). */
  METER_ADDRESS_CEILING: z.coerce.number().int().min(0).max(1_000_000_000).default(500),
  /** Let crawlers verified by reverse-then-forward DNS (Googlebot, Bingbot) read the full text. */
  CRAWLER_FULL_TEXT: flag,
  /** DNS servers ("host:port", comma-separated) for that check; unset: the system's. */
  CRAWLER_DNS_SERVERS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  PAYWALL_PREVIEW_PARAGRAPHS: positiveInt(3),
  /** The A/B tag on the subscribe call to action, per content tier: tier=tag pairs. */
  PAYWALL_TAGS: z
    .string()
    .default("article=paywall-article,top50=paywall-top50,cases=paywall-cases,visual-library=paywall-visual-library")
    .transform((value, ctx) => {
      const pairs = Object.fromEntries(value.split(",").map((pair) => pair.split("=").map((p) => p.trim())));
      const tiers = ["article", "top50", "cases", "visual-library"] as const;
      for (const tier of tiers) {
        if (!/^[A-Za-z0-9_-]{1,40}$/.test(pairs[tier] ?? "")) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `PAYWALL_TAGS needs a tag (letters, digits, - or _) for ${tier}` });
          return z.NEVER;
        }
      }
      return { article: pairs.article!, top50: pairs.top50!, cases: pairs.cases!, "visual-library": pairs["visual-library"]! };
    }),
  /** The A/B tag on the subscribe call to action in front of a subscriber-only video. */
  PAYWALL_VIDEO_TAG: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, "PAYWALL_VIDEO_TAG: letters, digits, - or _")
    .default("paywall-video"),
  GIFTS_PER_MONTH: z.coerce.number().int().min(0).max(1000).default(5),
  /** Days a gift link opens its article after it was made. */
  GIFT_LINK_DAYS: z.coerce.number().int().min(1).max(3650).default(14),

  // Payments: the built-in sandbox provider, or Stripe Checkout.
  PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).default("sandbox"),
  STRIPE_SECRET_KEY: z.string().regex(/^sk_/, "STRIPE_SECRET_KEY must start with sk_").optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, "STRIPE_WEBHOOK_SECRET must start with whsec_")
    .optional(),
  STRIPE_API_URL: z.string().url().optional(),
  // Renewals charge the card on file when a plan's period ends, for plans bought through a
  // provider the site renews through (the sandbox; ADR 066). Off: plans lapse at the end of their
  // period, and their terms say so.
  BILLING_RENEWALS: z.enum(["on", "off"]).default("on"),
  // Days a subscription whose renewal was declined keeps its access while the card is tried
  // again (days 1, 3 and 5) before it ends (ADR 066, "Dunning").
  BILLING_GRACE_DAYS: z.coerce.number().int().min(1).max(60).default(7),
  // Billing: the publisher's details printed on every invoice (address lines separated by ";").
  PUBLISHER_NAME: z.string().min(1).default("Meridian Review Publishing"),
  PUBLISHER_ADDRESS: z.string().min(1).default("60 Harbor Street; Boston, MA 02210; United States"),
  PUBLISHER_TAX_ID: z.string().min(1).optional(),

  // Store: ordering and order history close daily for maintenance (local time of STORE_TIMEZONE).
  // "off" never closes them on a schedule; MAINTENANCE_MODE closes them whenever it is on.
  STORE_MAINTENANCE_WINDOW: z
    .string()
    .regex(/^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d)$/, "STORE_MAINTENANCE_WINDOW must be HH:MM-HH:MM or off")
    .default("07:30-10:00"),
  STORE_TIMEZONE: z
    .string()
    .default("America/New_York")
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "STORE_TIMEZONE must be an IANA time zone such as America/New_York"),
});

export type Config = z.infer<typeof envSchema> & {
  dataDir: string;
  contentDir: string;
  production: boolean;
  siteUrl: string;
  /** Whether SITE_URL or PORT was given: if neither was, siteUrl is only the default's guess. */
  addressGiven: boolean;
};

/** Addresses that mean "every interface": the machine itself answers on them as localhost. */
const EVERY_INTERFACE = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The origin a server on HOST and PORT answers at from the machine it runs on: what links use
 * when SITE_URL is not given (a second copy started on another port links to itself).
 */
export function defaultSiteUrl(host: string | undefined, port: number): string {
  const name = !host || EVERY_INTERFACE.has(host) ? "localhost" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  // An address no URL can hold (an IPv6 one with its interface, fe80::1%eth0) is still this machine.
  return URL.canParse(`http://${name}`) ? new URL(`http://${name}:${port}`).origin : `http://localhost:${port}`;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  if (result.data.PORT === 0 && !result.data.SITE_URL) {
    throw new Error("Invalid configuration:\n  PORT: 0 (any free port) needs SITE_URL, the address links are to use");
  }
  if (result.data.PAYMENT_PROVIDER === "stripe" && !(result.data.STRIPE_SECRET_KEY && result.data.STRIPE_WEBHOOK_SECRET)) {
    throw new Error("Invalid configuration:\n  PAYMENT_PROVIDER: stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
  }
  const { IMAGE_BUCKET_URL, IMAGE_BUCKET_NAME, IMAGE_BUCKET_ACCESS_KEY_ID, IMAGE_BUCKET_SECRET_ACCESS_KEY } = result.data;
  if (IMAGE_BUCKET_URL && !(IMAGE_BUCKET_NAME && IMAGE_BUCKET_ACCESS_KEY_ID && IMAGE_BUCKET_SECRET_ACCESS_KEY)) {
    throw new Error(
      "Invalid configuration:\n  IMAGE_BUCKET_URL needs IMAGE_BUCKET_NAME, IMAGE_BUCKET_ACCESS_KEY_ID and IMAGE_BUCKET_SECRET_ACCESS_KEY",
    );
  }
  return {
    ...result.data,
    dataDir: path.resolve(result.data.DATA_DIR),
    contentDir: path.resolve(result.data.CONTENT_DIR),
    production: result.data.NODE_ENV === "production",
    siteUrl: result.data.SITE_URL?.replace(/\/$/, "") ?? defaultSiteUrl(result.data.HOST, result.data.PORT),
    addressGiven: Boolean(env.SITE_URL || env.PORT),
  };
}

let current: Config | undefined;

/** The configuration, read from the environment once: the only place the environment is read (tests/tooling checks it). */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/**
 * The production server's configuration (server/http), read before the Remix build loads. Unset,
 * NODE_ENV means production, and is written back to the environment: React and the libraries the
 * build imports pick their mode from it.
 */
export function serverConfig(): Config {
  process.env.NODE_ENV ??= "production";
  return config();
}
