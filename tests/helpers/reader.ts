import * as cheerio from "cheerio";
import { expect } from "vitest";

const PASSWORD = "Lantern5!quay";
let counter = 0;

/** A browser as the built server meets it: a cookie jar, same-site form posts, no redirects followed. */
export class Reader {
  constructor(
    readonly baseUrl: string,
    private readonly cookies = new Map<string, string>(),
  ) {}

  /** The same browser, cookies and all, talking to another instance of the site. */
  at(baseUrl: string): Reader {
    return new Reader(baseUrl, this.cookies);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The Cookie header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /**
   * A form may repeat a name (checkboxes): pass URLSearchParams for that. `json` sends a JSON
   * body as the site's own scripts call the service API. A body is sent from this site (Origin).
   */
  async request(
    path: string,
    init: { method?: string; form?: Record<string, string> | URLSearchParams; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = this.cookieHeader();
    let body: URLSearchParams | string | undefined;
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form);
    } else if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      headers.Accept = "application/json";
      body = JSON.stringify(init.json);
    }
    if (body !== undefined || (init.method && !["GET", "HEAD"].includes(init.method))) headers.Origin = this.baseUrl;
    Object.assign(headers, init.headers);
    const res = await fetch(this.baseUrl + path, {
      method: init.method ?? (body !== undefined ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      if (/Max-Age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(at + 1));
    }
    return res;
  }

  /** A page as a browser shows it: an article's first-visit cookie check is followed, as a browser would. */
  async page(path: string): Promise<cheerio.CheerioAPI> {
    let res = await this.request(path);
    const location = res.headers.get("location") ?? "";
    if (res.status === 302 && location.includes("cookie-check=")) res = await this.request(location);
    expect(res.status, path).toBe(200);
    return cheerio.load(await res.text());
  }
}

/** A newly registered, signed-in reader. */
export async function registeredReader(baseUrl: string): Promise<Reader> {
  const reader = new Reader(baseUrl);
  counter += 1;
  const res = await reader.request("/register", {
    form: {
      firstName: "Nell",
      lastName: "Ransome",
      emailAddress: `reader${counter}.${process.pid}.${Date.now()}@example.org`,
      password: PASSWORD,
    },
  });
  expect(res.status).toBe(303);
  return reader;
}

/** Pays for Digital in the sandbox checkout, as the browser would. */
export async function subscribe(reader: Reader): Promise<Reader> {
  const checkout = await reader.request("/subscriptions/checkout?plan=digital", { form: { countryCode: "GB" } });
  expect(checkout.status).toBe(303);
  const pay = await reader.request(new URL(checkout.headers.get("location")!, reader.baseUrl).pathname, {
    form: { cardNumber: "4242 4242 4242 4242" },
  });
  expect(pay.status).toBe(303);
  const back = new URL(pay.headers.get("location")!, reader.baseUrl);
  await reader.request(back.pathname + back.search);
  return reader;
}
