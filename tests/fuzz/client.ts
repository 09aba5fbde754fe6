// A minimal browser for the fuzz runs (no vitest, so `npm run fuzz` can use it too): a cookie
// jar, same-origin form posts, no redirects followed.

export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(path: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { Cookie: this.cookieHeader() };
    if (form) Object.assign(headers, { "Content-Type": "application/x-www-form-urlencoded", Origin: this.baseUrl });
    const res = await fetch(this.baseUrl + path, {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      if (/Max-Age=0/i.test(header)) this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /** Posts a form the setup relies on; anything but the expected status stops the run. */
  async expectStatus(path: string, form: Record<string, string> | undefined, status: number): Promise<Response> {
    const res = await this.request(path, form);
    if (res.status !== status)
      throw new Error(`${form ? "POST" : "GET"} ${path} answered ${res.status}, expected ${status}: ${(await res.text()).slice(0, 300)}`);
    return res;
  }
}

export const location = (res: Response) => {
  const url = new URL(res.headers.get("location") ?? "/", "http://x");
  return url.pathname + url.search;
};
