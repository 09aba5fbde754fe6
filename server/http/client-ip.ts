import { isIP } from "node:net";

/**
 * The visitor's address from the header our proxy sets, or null when no header is configured
 * or its value is not a plain IPv4/IPv6 address. In x-forwarded-for only the last entry is
 * trusted: it is the one our own proxy appended; anything before it came from the client.
 */
export function clientIp(request: Request, header: string | undefined): string | null {
  return header ? clientIpIn(request.headers.get(header), header) : null;
}

/** The same, from the header's value as Node gives it (repeated headers joined with commas). */
export function clientIpIn(value: string | string[] | null | undefined, header: string): string | null {
  const joined = Array.isArray(value) ? value.join(",") : value;
  if (joined === null || joined === undefined) return null;
  const candidate = (header.toLowerCase() === "x-forwarded-for" ? joined.split(",").at(-1) : joined)?.trim() ?? "";
  return isIP(candidate) ? candidate : null;
}

/**
 * The network a client address stands for when counting per address: an IPv4 address itself,
 * an IPv6 address's /64 (one household or office is given a whole /64 and may pick any address
 * in it). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function addressNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
