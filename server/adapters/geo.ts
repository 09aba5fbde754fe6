import { isIP } from "node:net";
import { config } from "~/server/config";
import { log } from "~/server/log";

const DOMESTIC = new Set(["US", "CA"]);

/**
 * The 27 EU member states, as ISO 3166-1 alpha-2 codes (what geo services give): Greece is "GR"
 * here, not the EU's own "EL".
 */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
]);

/**
 * Where a visitor is, as far as registration cares: domestic (US, Canada) readers get the opt-in
 * ticked by default; EU readers get it unticked, with a note on consent; other (or unknown) readers
 * get it unticked.
 */
export type Region = "domestic" | "eu" | "other";

/** The region of an ISO country code, in any case; an unknown country (null) is "other". */
export function regionOf(country: string | null): Region {
  const code = country?.toUpperCase() ?? "";
  if (DOMESTIC.has(code)) return "domestic";
  return EU_COUNTRIES.has(code) ? "eu" : "other";
}

/** US or Canada. */
export function isDomestic(country: string | null): boolean {
  return regionOf(country) === "domestic";
}

export interface Geo {
  countryOf(request: Request, clientIp: string | null): Promise<string | null>;
}

export interface GeoIpOptions {
  accountId: string;
  licenseKey: string;
  /** The GeoIP2 Country endpoint; the address is appended as the last path segment. */
  url: string;
  timeoutMs: number;
}

/** Where lookups are kept between requests and instances: the database, in the app. */
export interface CountryCache {
  read(address: string, now: Date): Promise<{ country: string | null } | undefined>;
  write(address: string, country: string | null, expiresAt: Date): Promise<void>;
}

/** How long an answer is kept: a country for a month, a failed lookup for an hour. */
export const KEEP_COUNTRY_MS = 30 * 86_400_000;
export const KEEP_FAILURE_MS = 3_600_000;

export interface GeoOptions extends Partial<Pick<GeoIpOptions, "accountId" | "licenseKey">> {
  /** A country header set by a trusted CDN (e.g. cf-ipcountry); consulted before GeoIP2. */
  countryHeader?: string;
  url: string;
  timeoutMs: number;
  /** Answers kept per address, so that the service is asked at most once per visitor. */
  cache?: CountryCache;
  now?: () => Date;
}

export class GeoIpError extends Error {
  constructor(
    readonly code: "HTTP_TIMEOUT" | "HTTP_ERROR",
    message: string,
    /** HTTP status and the service's own error code (e.g. IP_ADDRESS_NOT_FOUND), when it answered. */
    readonly status?: number,
    readonly serviceCode?: string,
  ) {
    super(message);
    this.name = "GeoIpError";
  }
}

const TWO_LETTERS = /^[A-Za-z]{2}$/;

export function createGeo(options: GeoOptions): Geo {
  const { countryHeader, accountId, licenseKey, cache } = options;
  const now = options.now ?? (() => new Date());
  return {
    async countryOf(request, clientIp) {
      const fromHeader = countryHeader ? request.headers.get(countryHeader)?.trim() : undefined;
      if (fromHeader && TWO_LETTERS.test(fromHeader)) return fromHeader.toUpperCase();

      if (!accountId || !licenseKey || !clientIp || !isIP(clientIp)) return null;
      const kept = await cache?.read(clientIp, now());
      if (kept) return kept.country;
      let country: string | null = null;
      let keepFor = KEEP_COUNTRY_MS;
      try {
        country = await lookupCountry(clientIp, { accountId, licenseKey, url: options.url, timeoutMs: options.timeoutMs });
      } catch (error) {
        if (!(error instanceof GeoIpError)) throw error;
        const codes = error.serviceCode ? `${error.code} ${error.serviceCode}` : error.code;
        log.warn(`geo: GeoIP2 lookup failed (${codes}): ${error.message}`);
        keepFor = KEEP_FAILURE_MS;
      }
      await cache?.write(clientIp, country, new Date(now().getTime() + keepFor));
      return country;
    },
  };
}

/** Asks the GeoIP2 Country web service for the ISO code of `ip`; null when it knows none. */
export async function lookupCountry(ip: string, options: GeoIpOptions): Promise<string | null> {
  if (!isIP(ip)) throw new TypeError(`Not an IP address: ${JSON.stringify(ip)}`);
  const credentials = Buffer.from(`${options.accountId}:${options.licenseKey}`).toString("base64");

  let status: number;
  let body: string;
  try {
    const res = await fetch(`${options.url.replace(/\/+$/, "")}/${ip}`, {
      headers: { authorization: `Basic ${credentials}`, accept: "application/json" },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    status = res.status;
    body = await res.text();
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      throw new GeoIpError("HTTP_TIMEOUT", "The request to the GeoIP2 web service timed out.");
    }
    throw new GeoIpError("HTTP_ERROR", `The request to the GeoIP2 web service failed: ${causeOf(error)}`);
  }

  if (status !== 200) throw serviceError(status, body);

  let parsed: { country?: { iso_code?: unknown } };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw new GeoIpError("HTTP_ERROR", "Received a 200 response from the GeoIP2 web service but could not parse the body", status);
  }
  const code = parsed?.country?.iso_code;
  return typeof code === "string" && TWO_LETTERS.test(code) ? code.toUpperCase() : null;
}

function serviceError(status: number, body: string): GeoIpError {
  if (!body.trim()) {
    return new GeoIpError("HTTP_ERROR", `Received a ${status} error from the GeoIP2 web service with no body`, status);
  }
  try {
    const { code, error } = JSON.parse(body) as { code?: unknown; error?: unknown };
    if (typeof code === "string" && typeof error === "string") return new GeoIpError("HTTP_ERROR", error, status, code);
  } catch {
    // Not JSON: fall through to the generic message below.
  }
  return new GeoIpError("HTTP_ERROR", `Received a ${status} error from the GeoIP2 web service with an unexpected body`, status);
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports every network failure as "fetch failed"; the reason is in `cause`.
  return error.cause instanceof Error ? error.cause.message : error.message;
}

/** The site's geo lookup, configured from the environment, keeping its answers in `cache`. */
export function configuredGeo(cache: CountryCache): Geo {
  const c = config();
  return createGeo({
    countryHeader: c.GEO_COUNTRY_HEADER,
    accountId: c.GEOIP_ACCOUNT_ID,
    licenseKey: c.GEOIP_LICENSE_KEY,
    url: c.GEOIP_URL,
    timeoutMs: c.GEOIP_TIMEOUT_MS,
    cache,
  });
}
