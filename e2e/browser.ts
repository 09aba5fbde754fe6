import fs from "node:fs";

/**
 * The Chromium to drive. Never downloads one: CHROMIUM_PATH, else Debian's /usr/bin/chromium,
 * else the binary shipped inside the npm package @sparticuz/chromium.
 */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const common = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
  const explicit = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  if (explicit) return { executablePath: explicit, args: [...common, "--no-sandbox", "--disable-gpu"] };
  const { default: chromium } = await import("@sparticuz/chromium");
  // Its default flags are tuned for AWS Lambda; --single-process crashes when a test opens a
  // second browser context, so it is left out.
  const args = chromium.args.filter((a) => a !== "--single-process");
  return { executablePath: await chromium.executablePath(), args: [...args, ...common] };
}
