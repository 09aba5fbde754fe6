import fs from "node:fs";

/**
 * The Chromium to drive. Never downloads one: CHROMIUM_PATH, else Debian's /usr/bin/chromium,
 * else the headless shell shipped inside the npm package @sparticuz/chromium.
 */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const common = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
  const explicit = process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  if (explicit) return { executablePath: explicit, args: [...common, "--no-sandbox", "--disable-gpu"] };
  const { default: chromium } = await import("@sparticuz/chromium");
  // Not the package's own flags, which suit AWS Lambda: they render through a software GPU (a
  // fifth more CPU in this suite), turn web security off, and run one process, which crashes
  // when a test opens a second browser context. These run the browser as a user's would.
  const args = [
    "--no-sandbox",
    "--no-zygote",
    "--disable-gpu",
    "--font-render-hinting=none",
    "--disable-features=AudioServiceOutOfProcess",
  ];
  return { executablePath: await chromium.executablePath(), args: [...args, ...common] };
}
