import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createGeo, KEEP_COUNTRY_MS, KEEP_FAILURE_MS } from "~/server/adapters/geo";
import type { Database } from "~/server/db/connection";
import { databaseCountryCache } from "~/server/adapters/geo-cache";
import { log } from "~/server/log";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

/** A GeoIP2 Country endpoint that places 192.0.2.10 in Canada and never answers for 192.0.2.50. */
function startGeoIp(): Promise<{ server: Server; url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const ip = decodeURIComponent((req.url ?? "").split("/").pop() ?? "");
    asked.push(ip);
    if (ip === "192.0.2.50") return;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ country: { iso_code: "CA" } }));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/country`, asked }),
    ),
  );
}

describe(`geo lookups kept per visitor (${dialectName})`, () => {
  let db: Database;
  let close: () => Promise<void>;
  let geoip: Awaited<ReturnType<typeof startGeoIp>>;
  let now = new Date("2026-11-15T12:00:00Z");
  const request = new Request("http://localhost/register");
  /**
   * Two instances of the site: each its own lookup, one database. The time-out is short only
   * where the service never answers, so that a loaded machine cannot turn an answer into one.
   */
  const instances = (timeoutMs = 30_000) =>
    [1, 2].map(() =>
      createGeo({
        accountId: "1",
        licenseKey: "k",
        url: geoip.url,
        timeoutMs,
        cache: databaseCountryCache(db),
        now: () => now,
      }),
    );

  beforeAll(async () => {
    ({ db, close } = await seededTestDatabase());
    geoip = await startGeoIp();
  });
  afterAll(async () => {
    geoip.server.closeAllConnections();
    await new Promise<void>((resolve) => geoip.server.close(() => resolve()));
    await close();
  });
  beforeEach(() => {
    geoip.asked.length = 0;
    vi.spyOn(log, "warn").mockImplementation(() => {});
  });

  it("asks the service once per visitor, whichever instance they reach, until the answer is a month old", async () => {
    const [one, two] = instances();
    expect(await one!.countryOf(request, "192.0.2.10")).toBe("CA");
    expect(await two!.countryOf(request, "192.0.2.10")).toBe("CA");
    expect(await one!.countryOf(request, "192.0.2.10")).toBe("CA");
    expect(geoip.asked).toEqual(["192.0.2.10"]);

    now = new Date(now.getTime() + KEEP_COUNTRY_MS + 1);
    expect(await two!.countryOf(request, "192.0.2.10")).toBe("CA");
    expect(geoip.asked).toEqual(["192.0.2.10", "192.0.2.10"]);
  });

  it("makes a visitor wait out a service that times out once, and asks again an hour later", async () => {
    const [one, two] = instances(200);
    expect(await one!.countryOf(request, "192.0.2.50")).toBeNull();
    expect(await two!.countryOf(request, "192.0.2.50")).toBeNull();
    expect(geoip.asked).toEqual(["192.0.2.50"]);

    now = new Date(now.getTime() + KEEP_FAILURE_MS + 1);
    expect(await one!.countryOf(request, "192.0.2.50")).toBeNull();
    expect(geoip.asked).toEqual(["192.0.2.50", "192.0.2.50"]);
  });
});
