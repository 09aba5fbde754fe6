import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Search engines whose crawlers may read the full text when the site allows it: a crawler is
 * believed only when its address's reverse DNS name lies in the engine's own domain and that
 * name resolves forward to the same address (the check Google and Bing document).
 */
const ENGINES = [
  { agent: /\bGooglebot\b/i, domains: ["googlebot.com", "google.com"] },
  { agent: /\bbingbot\b/i, domains: ["search.msn.com"] },
];

/** User agents that say they are robots. They keep no cookies, so they meet the wall at once. */
const ROBOT_AGENT = /bot\b|crawl|spider|slurp|facebookexternalhit|curl\/|wget\/|python-requests|go-http-client|^$/i;

export function claimsToBeRobot(userAgent: string | null): boolean {
  return ROBOT_AGENT.test(userAgent ?? "");
}

export interface DnsLookups {
  reverse(ip: string): Promise<string[]>;
  forward(hostname: string, family: 4 | 6): Promise<string[]>;
}

/** Lookups through the system's resolvers, or through the given servers ("host:port"). */
export function dnsLookups(servers: string[] = [], timeoutMs = 2_000): DnsLookups {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    reverse: (ip) => resolver.reverse(ip),
    forward: (hostname, family) => (family === 4 ? resolver.resolve4(hostname) : resolver.resolve6(hostname)),
  };
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

async function verify(lookups: DnsLookups, ip: string, domains: string[]): Promise<boolean> {
  const family = isIP(ip);
  if (family !== 4 && family !== 6) return false;
  try {
    const names = await lookups.reverse(ip);
    for (const name of names.slice(0, 4)) {
      const host = name.toLowerCase().replace(/\.$/, "");
      if (!domains.some((d) => host.endsWith(`.${d}`))) continue;
      const addresses = await lookups.forward(host, family);
      if (addresses.some((a) => sameAddress(a, ip))) return true;
    }
  } catch {
    // No PTR record, no such name, or the resolver did not answer: not verified.
  }
  return false;
}

const VERIFIED_FOR_MS = 24 * 3_600_000;
const REFUSED_FOR_MS = 3_600_000;
const MAX_REMEMBERED = 10_000;

/**
 * A checker that remembers its answers per address (a crawler fetches many pages; a day for a
 * verified address, an hour for a refused one), so DNS is asked once per address, not per page.
 */
export function crawlerVerifier(lookups: DnsLookups, now: () => number = Date.now) {
  const remembered = new Map<string, { verified: boolean; until: number }>();
  return async function isVerifiedCrawler(ip: string, userAgent: string | null): Promise<boolean> {
    const engine = ENGINES.find((e) => e.agent.test(userAgent ?? ""));
    if (!engine) return false;
    const key = `${engine.domains[0]} ${ip}`;
    const known = remembered.get(key);
    if (known && known.until > now()) return known.verified;
    const verified = await verify(lookups, ip, engine.domains);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, { verified, until: now() + (verified ? VERIFIED_FOR_MS : REFUSED_FOR_MS) });
    return verified;
  };
}
