import { isStorableText } from "../../server/db/storable-text";
import { isCrossSite } from "../../server/http/cross-site";
import { config } from "./db.server";
import { HONEYPOT_FIELD } from "./forms/honeypot";
import { CROSS_SITE_REFUSED } from "./site";

const MAX_FORM_BYTES = 64 * 1024;

function refuse(status: number, message: string): never {
  throw new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Refuses a state-changing request that another site started (403; the root error page shows
 * CROSS_SITE_REFUSED inside the site): the browser's Sec-Fetch-Site when it sends one, else
 * the Origin header. Requests with neither come from non-browser clients, which carry no
 * reader's cookies. Every action calls this first, through readForm.
 */
export function refuseCrossSite(request: Request): void {
  if (isCrossSite(request.headers, [new URL(config().siteUrl).origin, new URL(request.url).origin])) refuse(403, CROSS_SITE_REFUSED);
}

/**
 * Every action's way in: refuses cross-site posts and oversized bodies, reads the form, refuses
 * NUL bytes and lone surrogates (PostgreSQL cannot store them) and drops what a bot filled into
 * the honeypot with a 400.
 */
export async function readForm(request: Request): Promise<FormData> {
  refuseCrossSite(request);
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > MAX_FORM_BYTES) refuse(413, "Form too large");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    refuse(400, "Form could not be read");
  }
  for (const [name, value] of form) {
    if (!isStorableText(name) || (typeof value === "string" && !isStorableText(value)))
      refuse(400, "Form holds characters that cannot be stored");
  }
  const honey = form.get(HONEYPOT_FIELD);
  if (typeof honey === "string" && honey.length > 0) refuse(400, "Form could not be read");
  return form;
}
