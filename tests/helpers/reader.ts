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

  /** A form may repeat a name (checkboxes): pass URLSearchParams for that. */
  async request(
    path: string,
    init: { method?: string; form?: Record<string, string> | URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "), ...init.headers };
    if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      headers.Origin ??= this.baseUrl;
    }
    const res = await fetch(this.baseUrl + path, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
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
  const checkout = await reader.request("/subscriptions/checkout?plan=digital", { form: {} });
  expect(checkout.status).toBe(303);
  const pay = await reader.request(new URL(checkout.headers.get("location")!, reader.baseUrl).pathname, {
    form: { cardNumber: "4242 4242 4242 4242" },
  });
  expect(pay.status).toBe(303);
  const back = new URL(pay.headers.get("location")!, reader.baseUrl);
  await reader.request(back.pathname + back.search);
  return reader;
}
