import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createGeo, EU_COUNTRIES, GeoIpError, isDomestic, lookupCountry, regionOf } from "~/server/adapters/geo";
import { clientIp } from "~/server/http/client-ip";
import { log } from "~/server/log";

const ACCOUNT_ID = "123456";
const LICENSE_KEY = "test_license_key";

/** The GeoIP2 Country web service: GET /geoip/v2.1/country/{ip} behind HTTP Basic auth. */
function startGeoIp(): Promise<{ server: Server; url: string; requests: { path: string; accept: string }[] }> {
  const requests: { path: string; accept: string }[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${ACCOUNT_ID}:${LICENSE_KEY}`).toString("base64")}`;
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", accept: req.headers.accept ?? "" });
    const json = (status: number, body: object) =>
      res.writeHead(status, { "content-type": "application/vnd.maxmind.com-error+json; charset=UTF-8" }).end(JSON.stringify(body));

    if (req.headers.authorization !== expectedAuth) {
      return json(401, {
        code: "AUTHORIZATION_INVALID",
        error: "You have supplied an invalid MaxMind account ID and/or license key in the Authorization header.",
      });
    }
    const ip = decodeURIComponent((req.url ?? "").replace(/^\/geoip\/v2\.1\/country\//, ""));
    switch (ip) {
      case "192.0.2.10":
      case "2001:db8::10":
        return void res.writeHead(200, { "content-type": "application/vnd.maxmind.com-country+json; charset=UTF-8; version=2.1" }).end(
          JSON.stringify({
            continent: { code: "NA" },
            country: { iso_code: "CA", names: { en: "Canada" } },
            traits: { ip_address: ip },
          }),
        );
      case "192.0.2.20":
        return json(404, { code: "IP_ADDRESS_NOT_FOUND", error: "The value 192.0.2.20 is not in the database." });
      case "192.0.2.30":
        return void res.writeHead(500).end();
      case "192.0.2.40":
        return void res.writeHead(200, { "content-type": "application/json" }).end('{"country": {"iso_code": "C');
      case "192.0.2.50":
        // Never answers: only the client's own time-out can end the wait.
        return;
      case "192.0.2.60":
        return json(200, { continent: { code: "EU" }, traits: { ip_address: ip, is_anonymous_proxy: true } });
      default:
        return json(400, { code: "IP_ADDRESS_INVALID", error: `The value ${ip} is not a valid IP address.` });
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/geoip/v2.1/country`, requests });
    }),
  );
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/geoip/v2.1/country`;
}

async function geoIpError(promise: Promise<unknown>): Promise<GeoIpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeoIpError);
  return error as GeoIpError;
}

const visitor = (headers: Record<string, string> = {}) => new Request("http://localhost:3000/register", { headers });

describe("GeoIP2 web service", () => {
  let geoip: Awaited<ReturnType<typeof startGeoIp>>;
  let warnings: string[];
  // A time-out a loaded machine's loopback answer never reaches; the slow-answer test sets its own.
  const options = () => ({ accountId: ACCOUNT_ID, licenseKey: LICENSE_KEY, url: geoip.url, timeoutMs: 30_000 });

  beforeAll(async () => {
    geoip = await startGeoIp();
  });

  afterAll(async () => {
    geoip.server.closeAllConnections();
    await new Promise<void>((resolve) => geoip.server.close(() => resolve()));
  });

  beforeEach(() => {
    geoip.requests.length = 0;
    warnings = [];
    vi.spyOn(log, "warn").mockImplementation((line: string) => void warnings.push(line));
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("looks up the country of an IPv4 or IPv6 address", async () => {
    await expect(lookupCountry("192.0.2.10", options())).resolves.toBe("CA");
    await expect(lookupCountry("2001:db8::10", options())).resolves.toBe("CA");
    expect(geoip.requests[0]).toEqual({ path: "/geoip/v2.1/country/192.0.2.10", accept: "application/json" });
  });

  it("answers null for an address the service places in no country", async () => {
    await expect(lookupCountry("192.0.2.60", options())).resolves.toBeNull();
  });

  it("passes on the service's own error text", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.20", options()));
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toBe("The value 192.0.2.20 is not in the database.");
    expect(error.status).toBe(404);
    expect(error.serviceCode).toBe("IP_ADDRESS_NOT_FOUND");
  });

  it("reports wrong credentials in the service's words", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.10", { ...options(), licenseKey: "revoked" }));
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.serviceCode).toBe("AUTHORIZATION_INVALID");
    expect(error.message).toMatch(/invalid MaxMind account ID/);
  });

  it("reports an error status that comes with no body", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.30", options()));
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toBe("Received a 500 error from the GeoIP2 web service with no body");
  });

  it("reports a 200 answer whose body is not valid JSON", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.40", options()));
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toBe("Received a 200 response from the GeoIP2 web service but could not parse the body");
  });

  it("gives up on a service that does not answer, after timeoutMs", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.50", { ...options(), timeoutMs: 200 }));
    expect(error.code).toBe("HTTP_TIMEOUT");
    expect(error.message).toBe("The request to the GeoIP2 web service timed out.");
  });

  it("reports a network failure with its cause", async () => {
    const error = await geoIpError(lookupCountry("192.0.2.10", { ...options(), url: await closedPortUrl() }));
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toMatch(/^The request to the GeoIP2 web service failed: .*ECONNREFUSED/);
  });

  it("countryOf uses the service for the visitor's address", async () => {
    const geo = createGeo(options());
    await expect(geo.countryOf(visitor(), "192.0.2.10")).resolves.toBe("CA");
    expect(warnings).toEqual([]);
  });

  it("countryOf answers null and logs one line when the lookup fails", async () => {
    await expect(createGeo({ ...options(), timeoutMs: 200 }).countryOf(visitor(), "192.0.2.50")).resolves.toBeNull();
    await expect(createGeo(options()).countryOf(visitor(), "192.0.2.20")).resolves.toBeNull();
    expect(warnings).toEqual([
      "geo: GeoIP2 lookup failed (HTTP_TIMEOUT): The request to the GeoIP2 web service timed out.",
      "geo: GeoIP2 lookup failed (HTTP_ERROR IP_ADDRESS_NOT_FOUND): The value 192.0.2.20 is not in the database.",
    ]);
  });

  it("countryOf prefers the trusted country header and then skips the service", async () => {
    const geo = createGeo({ ...options(), countryHeader: "CF-IPCountry" });
    await expect(geo.countryOf(visitor({ "cf-ipcountry": "us" }), "192.0.2.10")).resolves.toBe("US");
    expect(geoip.requests).toHaveLength(0);
  });

  it("countryOf falls back to the service when the header is absent or not a country code", async () => {
    const geo = createGeo({ ...options(), countryHeader: "cf-ipcountry" });
    await expect(geo.countryOf(visitor(), "192.0.2.10")).resolves.toBe("CA");
    await expect(geo.countryOf(visitor({ "cf-ipcountry": "T1" }), "192.0.2.10")).resolves.toBe("CA");
    expect(geoip.requests).toHaveLength(2);
  });

  it("countryOf ignores a country header that is not configured as trusted", async () => {
    const geo = createGeo(options());
    await expect(geo.countryOf(visitor({ "cf-ipcountry": "US" }), "192.0.2.10")).resolves.toBe("CA");
  });

  it("countryOf asks nobody without an account or without the visitor's address", async () => {
    await expect(createGeo({ url: geoip.url, timeoutMs: 200 }).countryOf(visitor(), "192.0.2.10")).resolves.toBeNull();
    await expect(createGeo(options()).countryOf(visitor(), null)).resolves.toBeNull();
    expect(geoip.requests).toHaveLength(0);
  });
});

describe("isDomestic", () => {
  it("counts the US and Canada as domestic, anything else (or unknown) as not", () => {
    expect(isDomestic("US")).toBe(true);
    expect(isDomestic("CA")).toBe(true);
    expect(isDomestic("GB")).toBe(false);
    expect(isDomestic("MX")).toBe(false);
    expect(isDomestic(null)).toBe(false);
  });
});

describe("regionOf", () => {
  it("places the US and Canada as domestic, EU members as eu, and the rest of Europe as other", () => {
    expect(["US", "CA"].map(regionOf)).toEqual(["domestic", "domestic"]);
    expect(["DE", "FR", "GR", "IE", "HR", "CY"].map(regionOf)).toEqual(["eu", "eu", "eu", "eu", "eu", "eu"]);
    // Outside the EU: the UK, Switzerland, and the EEA members that are not EU members.
    expect(["GB", "CH", "NO", "IS", "LI", "JP"].map(regionOf)).toEqual(["other", "other", "other", "other", "other", "other"]);
  });

  it("reads codes in any case, and places an unknown country as other", () => {
    expect(regionOf("de")).toBe("eu");
    expect(regionOf("us")).toBe("domestic");
    expect(regionOf(null)).toBe("other");
    expect(regionOf("")).toBe("other");
    // The EU's own code for Greece is not ISO 3166-1: geo services say GR.
    expect(regionOf("EL")).toBe("other");
  });

  it("knows the 27 member states", () => {
    expect(EU_COUNTRIES.size).toBe(27);
    for (const code of EU_COUNTRIES) expect(regionOf(code)).toBe("eu");
  });
});

describe("clientIp", () => {
  const withHeader = (name: string, value: string) => new Request("http://localhost:3000/", { headers: { [name]: value } });

  it("trusts only the last x-forwarded-for entry, the one our proxy appended", () => {
    const request = withHeader("x-forwarded-for", "10.0.0.1, 198.51.100.23 ,  203.0.113.9 ");
    expect(clientIp(request, "x-forwarded-for")).toBe("203.0.113.9");
    expect(clientIp(request, "X-Forwarded-For")).toBe("203.0.113.9");
  });

  it("reads a single-address header as it is, IPv6 included", () => {
    expect(clientIp(withHeader("x-real-ip", " 2001:db8::1 "), "x-real-ip")).toBe("2001:db8::1");
    expect(clientIp(withHeader("fly-client-ip", "198.51.100.23"), "fly-client-ip")).toBe("198.51.100.23");
  });

  it("answers null for anything that is not a bare address", () => {
    expect(clientIp(withHeader("x-forwarded-for", "198.51.100.23, unknown"), "x-forwarded-for")).toBeNull();
    expect(clientIp(withHeader("x-forwarded-for", "198.51.100.23:4711"), "x-forwarded-for")).toBeNull();
    expect(clientIp(withHeader("x-real-ip", "198.51.100.23, 203.0.113.9"), "x-real-ip")).toBeNull();
    expect(clientIp(withHeader("x-real-ip", "../../admin"), "x-real-ip")).toBeNull();
    expect(clientIp(withHeader("x-real-ip", ""), "x-real-ip")).toBeNull();
  });

  it("answers null when the header is missing or none is configured", () => {
    expect(clientIp(withHeader("x-forwarded-for", "203.0.113.9"), "x-real-ip")).toBeNull();
    expect(clientIp(withHeader("x-forwarded-for", "203.0.113.9"), undefined)).toBeNull();
  });
});
