import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressNetwork } from "~/server/http/client-ip";
import { claimsToBeRobot, crawlerVerifier, dnsLookups } from "~/server/paywall/crawlers";
import { startDnsServer, type DnsServer } from "~/tests/helpers/dns-server";

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    ptr: {
      "1.2.0.192.in-addr.arpa": ["crawl-192-0-2-1.googlebot.com"],
      "2.2.0.192.in-addr.arpa": ["msnbot-192-0-2-2.search.msn.com"],
      // Claims Google's domain in its PTR record, but the name does not resolve back to it.
      "3.2.0.192.in-addr.arpa": ["crawl-192-0-2-3.googlebot.com"],
      // A look-alike domain that resolves back to itself.
      "4.2.0.192.in-addr.arpa": ["crawl.googlebot.com.evil.example"],
      "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa": ["crawl-v6.googlebot.com"],
    },
    a: {
      "crawl-192-0-2-1.googlebot.com": ["192.0.2.1"],
      "msnbot-192-0-2-2.search.msn.com": ["192.0.2.2"],
      "crawl-192-0-2-3.googlebot.com": ["198.51.100.3"],
      "crawl.googlebot.com.evil.example": ["192.0.2.4"],
    },
    aaaa: { "crawl-v6.googlebot.com": ["2001:db8::1"] },
  });
});
afterAll(() => dns.close());

describe("verifying a search engine's crawler by reverse, then forward DNS", () => {
  it("believes Googlebot and Bingbot whose address's name is in their domain and resolves back to it, IPv6 included", async () => {
    const verified = crawlerVerifier(dnsLookups([dns.address]));
    expect(await verified("192.0.2.1", GOOGLEBOT)).toBe(true);
    expect(await verified("192.0.2.2", BINGBOT)).toBe(true);
    expect(await verified("2001:db8::1", GOOGLEBOT)).toBe(true);
  });

  it("refuses a name that does not resolve back, a look-alike domain, an address with no name, another engine's name and a browser", async () => {
    const verified = crawlerVerifier(dnsLookups([dns.address]));
    expect(await verified("192.0.2.3", GOOGLEBOT)).toBe(false);
    expect(await verified("192.0.2.4", GOOGLEBOT)).toBe(false);
    expect(await verified("192.0.2.9", GOOGLEBOT)).toBe(false);
    expect(await verified("192.0.2.2", GOOGLEBOT)).toBe(false);
    expect(await verified("192.0.2.1", BROWSER)).toBe(false);
  });

  it("asks DNS once per address while its answer lasts, and again after", async () => {
    let clock = 0;
    const verified = crawlerVerifier(dnsLookups([dns.address]), () => clock);
    dns.questions.length = 0;
    for (let i = 0; i < 5; i++) expect(await verified("192.0.2.1", GOOGLEBOT)).toBe(true);
    expect(dns.questions).toEqual(["PTR 1.2.0.192.in-addr.arpa", "A crawl-192-0-2-1.googlebot.com"]);
    clock += 25 * 3_600_000;
    expect(await verified("192.0.2.1", GOOGLEBOT)).toBe(true);
    expect(dns.questions).toHaveLength(4);
  });

  it("says no when the resolver does not answer", async () => {
    const silent = await startDnsServer({});
    await silent.close();
    // Nothing listens on that port any more: the resolver gets no answer (or a refusal).
    const verified = crawlerVerifier(dnsLookups([silent.address], 200));
    expect(await verified("192.0.2.1", GOOGLEBOT)).toBe(false);
  });
});

describe("what counts as a robot, and as one network", () => {
  it("takes crawlers, command-line clients and an empty user agent for robots, and browsers for people", () => {
    for (const agent of [GOOGLEBOT, BINGBOT, "curl/8.5.0", "Wget/1.21", "python-requests/2.31", "", null])
      expect(claimsToBeRobot(agent), String(agent)).toBe(true);
    expect(claimsToBeRobot(BROWSER)).toBe(false);
  });

  it("counts an IPv4 address as itself and an IPv6 address as its /64", () => {
    expect(addressNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(addressNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressNetwork("2001:db8:a:b:1:2:3:4")).toBe("2001:db8:a:b::/64");
    expect(addressNetwork("2001:0db8:000a:000b::99")).toBe("2001:db8:a:b::/64");
    expect(addressNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
  });
});
