// What the benchmarks' clients send to be taken for a reader's browser. A request without a
// User-Agent is a robot's to the crawler check (server/paywall/crawlers.ts): it is served
// unmetered, with no meter write, which flatters every guest figure (ADR 093).
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";

/** A desktop Chrome's User-Agent, sent with every page request the benchmarks make. */
export const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** fetch, with the browser's User-Agent unless the caller gives one. */
export function browserFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has("user-agent")) headers.set("user-agent", USER_AGENT);
  return fetch(url, { ...init, headers });
}

/** The `name=value` part of the cookie `name` that an answer sets. */
export function cookieOf(res: Response, name: string): string | undefined {
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];
}

/** A returning guest's visitor cookie: the cookie check on `article` followed once, which puts the article on the guest's meter. */
export async function returningGuest(base: string, article: string): Promise<string> {
  const first = await browserFetch(base + article, { redirect: "manual" });
  const cookie = cookieOf(first, "mr_visitor");
  const location = first.headers.get("location");
  if (!cookie || !location) throw new Error(`${article} answered a first visit ${first.status} without the cookie check`);
  const checked = await browserFetch(new URL(location, base).href, { headers: { cookie } });
  if (!checked.ok) throw new Error(`${location} answered ${checked.status}`);
  await checked.arrayBuffer();
  return cookie;
}

/** Posts a form as the site's own page does; the session cookie it sets, if it answers with a redirect. */
async function sessionFrom(base: string, action: string, form: Record<string, string>): Promise<string | undefined> {
  const res = await browserFetch(base + action, {
    method: "POST",
    body: new URLSearchParams(form),
    redirect: "manual",
    headers: { origin: base },
  });
  return res.status === 303 ? cookieOf(res, "mr_session") : undefined;
}

const PASSWORD = "Bench#reader7";

/**
 * Signed-in sessions made through the site's forms: a reader who registered (no subscription,
 * so the registered meter applies) and the first active print subscriber of the seed
 * (content/accounts.json), who links the subscription at registration, or, on a database kept
 * from an earlier run, signs in.
 */
export async function readerSessions(base: string): Promise<{ registered: string; subscriber: string }> {
  const accounts = JSON.parse(fs.readFileSync("content/accounts.json", "utf8")) as {
    printSubscribers: { email: string; accountNumber: string; active: boolean }[];
  };
  const { email, accountNumber } = accounts.printSubscribers.find((s) => s.active)!;
  const registered = await sessionFrom(base, "/register", {
    firstName: "Bench",
    lastName: "Reader",
    emailAddress: `bench-${Date.now()}@example.com`,
    password: PASSWORD,
  });
  const subscriber =
    (await sessionFrom(base, "/subscriber-registration", { emailAddress: email, accountNumber, password: PASSWORD })) ??
    (await sessionFrom(base, "/sign-in", { username: email, password: PASSWORD }));
  if (!registered || !subscriber) throw new Error(`no session for the ${registered ? "subscriber" : "registered reader"}`);
  return { registered, subscriber };
}

/** Keep-alive connections, as a browser keeps them; as many as there are readers at once. */
const agent = new http.Agent({ keepAlive: true });

/**
 * One request through node:http, whose client costs this process about a third of what fetch
 * does: the load generator shares the server's cores, and what it spends they lose. Asks for
 * compressed answers, as browsers do, and returns the answer whole, decompressed.
 */
export function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method: init.method ?? "GET",
        headers: { "User-Agent": USER_AGENT, ...init.headers, "Accept-Encoding": "br, gzip" },
        signal: AbortSignal.timeout(30_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers["content-encoding"];
          const body = encoding === "br" ? zlib.brotliDecompressSync(raw) : encoding === "gzip" ? zlib.gunzipSync(raw) : raw;
          const headers = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const status = res.statusCode!;
          resolve(new Response(status === 204 || status === 304 ? null : new Uint8Array(body), { status, headers }));
        });
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}
