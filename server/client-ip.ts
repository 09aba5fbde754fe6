import { isIP } from "node:net";

/**
 * The visitor's address from the header our proxy sets, or null when no header is configured
 * or its value is not a plain IPv4/IPv6 address. In x-forwarded-for only the last entry is
 * trusted: it is the one our own proxy appended; anything before it came from the client.
 */
export function clientIp(request: Request, header: string | undefined): string | null {
  if (!header) return null;
  const value = request.headers.get(header);
  if (value === null) return null;
  const candidate = (header.toLowerCase() === "x-forwarded-for" ? value.split(",").at(-1) : value)?.trim() ?? "";
  return isIP(candidate) ? candidate : null;
}
