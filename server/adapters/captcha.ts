import { config } from "~/server/config";
import { log } from "~/server/log";

export type CaptchaResult = { ok: true } | { ok: false; reason: "missing" | "rejected" | "unavailable" };

export interface Captcha {
  enabled: boolean;
  siteKey?: string;
  scriptUrl?: string;
  verify(token: string | null | undefined, expectedAction: string, remoteIp?: string): Promise<CaptchaResult>;
}

export interface CaptchaOptions {
  /** Server-side secret; the captcha is off without it. */
  secret?: string;
  siteKey?: string;
  scriptUrl?: string;
  /** The siteverify endpoint. */
  verifyUrl: string;
  /** reCAPTCHA v3 score (0 = bot, 1 = human) below which a token is rejected. */
  minScore: number;
  timeoutMs?: number;
}

interface SiteverifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
}

export function createCaptcha(options: CaptchaOptions): Captcha {
  if (!options.secret?.trim()) {
    return { enabled: false, verify: async () => ({ ok: true }) };
  }
  const secret = options.secret.trim();
  const timeoutMs = options.timeoutMs ?? 3000;

  async function verify(token: string | null | undefined, expectedAction: string, remoteIp?: string): Promise<CaptchaResult> {
    const response = token?.trim();
    if (!response) return { ok: false, reason: "missing" };

    const form = new URLSearchParams({ secret, response });
    if (remoteIp) form.set("remoteip", remoteIp);

    let answer: SiteverifyAnswer;
    try {
      const res = await fetch(options.verifyUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        return unavailable(`siteverify answered ${res.status}`);
      }
      answer = (await res.json()) as SiteverifyAnswer;
    } catch (error) {
      return unavailable(describe(error));
    }

    const accepted =
      answer.success === true && typeof answer.score === "number" && answer.score >= options.minScore && answer.action === expectedAction;
    return accepted ? { ok: true } : { ok: false, reason: "rejected" };
  }

  return { enabled: true, siteKey: options.siteKey, scriptUrl: options.scriptUrl, verify };
}

function unavailable(why: string): CaptchaResult {
  log.warn(`captcha: verification unavailable: ${why}`);
  return { ok: false, reason: "unavailable" };
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "siteverify timed out";
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

let current: Captcha | undefined;

export function captcha(): Captcha {
  if (!current) {
    const c = config();
    current = createCaptcha({
      secret: c.CAPTCHA_SECRET,
      siteKey: c.CAPTCHA_SITE_KEY,
      scriptUrl:
        c.CAPTCHA_SCRIPT_URL ??
        (c.CAPTCHA_SITE_KEY ? `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(c.CAPTCHA_SITE_KEY)}` : undefined),
      verifyUrl: c.CAPTCHA_VERIFY_URL,
      minScore: c.CAPTCHA_MIN_SCORE,
    });
  }
  return current;
}
