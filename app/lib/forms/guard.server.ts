import { isStorableText } from "~/server/db/storable-text";
import { isCrossSite } from "~/server/http/cross-site";
import { config } from "~/app/lib/context/db.server";
import { HONEYPOT_FIELD } from "./honeypot";
import { readFormBody } from "./read-body.server";
import { CROSS_SITE_REFUSED } from "./cross-site";

const MAX_FORM_BYTES = 64 * 1024;
/** Far above any of the site's forms (the longest, a library page's, ticks at most 10 items and 100 folders). */
const MAX_FORM_FIELDS = 1_000;

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
 * Every action's way in: refuses cross-site posts (403), a body over 64 KB as received, chunked
 * or not, and more than 1,000 fields (413), reads the form, refuses NUL bytes and lone
 * surrogates (PostgreSQL cannot store them) and drops what a bot filled into the honeypot with
 * a 400. A form that carries a long text (the desk's article) may allow a larger body.
 */
export async function readForm(request: Request, limits: { maxBytes?: number } = {}): Promise<FormData> {
  refuseCrossSite(request);
  const form = await readFormBody(request, { maxBytes: limits.maxBytes ?? MAX_FORM_BYTES, maxFields: MAX_FORM_FIELDS });
  if (form === "too-large") refuse(413, "Form too large");
  if (form === "too-many-fields") refuse(413, "Form has too many fields");
  if (form === "unreadable") refuse(400, "Form could not be read");
  for (const [name, value] of form) {
    if (!isStorableText(name) || (typeof value === "string" && !isStorableText(value)))
      refuse(400, "Form holds characters that cannot be stored");
  }
  const honey = form.get(HONEYPOT_FIELD);
  if (typeof honey === "string" && honey.length > 0) refuse(400, "Form could not be read");
  return form;
}
