import type { AppLoadContext } from "@remix-run/node";
import type { z, ZodError, ZodTypeAny } from "zod";
import type { User } from "~/server/accounts/users";
import type { ApiKey } from "~/server/desk/api-keys";
import type { LastSave, SaveResult } from "~/server/desk/catalogue/common";
import { mayAct } from "~/server/desk/roles";
import { isStorableText } from "~/server/db/storable-text";
import { isCrossSite } from "~/server/http/cross-site";
import { log } from "~/server/log";
import { config } from "~/app/lib/context/db.server";
import { readBodyBytes, readFormBody } from "~/app/lib/forms/read-body.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { CROSS_SITE_REFUSED, GENERIC_ERROR } from "~/app/lib/forms/cross-site";
import type { ApiErrorBody, Endpoint } from "./contract";
import { requestContext } from "~/app/lib/context/request-context.server";
import { deskKeyFor, recordDeskCall } from "./desk-key.server";

// Serves the endpoints of one path (app/lib/api/contract.ts): checks the method, the site the
// request came from, who is calling and the input, with the same rules as the pages, then calls
// the endpoint's handler. Every answer is JSON and never cached by a shared cache.

const MAX_BODY_BYTES = 64 * 1024;
/** As for the pages' forms (form-guard.server.ts). */
const MAX_FORM_FIELDS = 1_000;

export type Call<E extends Endpoint> =
  E extends Endpoint<infer Q, infer P, infer B, infer A, infer H>
    ? {
        request: Request;
        context: AppLoadContext;
        query: z.output<Q>;
        params: z.output<P>;
        body: z.output<B>;
        /** The headers the endpoint declares, by the names it gives them. */
        headers: z.output<H>;
        /** The signed-in reader; always there when the endpoint's access is "reader" or "subscriber". */
        user: A extends "public" | "desk-key" ? User | undefined : User;
        /** The staff API key calling an Admin API endpoint. */
        key: A extends "desk-key" ? ApiKey : undefined;
      }
    : never;

type Handler<E extends Endpoint> = (call: Call<E>) => Promise<Response>;

export interface Served {
  endpoint: Endpoint;
  handle: Handler<Endpoint>;
}

/** One endpoint and what answers it, its input typed by its schemas. */
export function serve<E extends Endpoint>(endpoint: E, handle: Handler<E>): Served {
  return { endpoint, handle: handle as unknown as Handler<Endpoint> };
}

/** A JSON answer that no shared cache keeps. */
export function apiJson(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", headers.get("Cache-Control") ?? "private, no-store");
  return Response.json(data, { status: init.status ?? 200, headers });
}

export function apiError(
  status: number,
  code: string,
  message: string,
  extra: Partial<ApiErrorBody> & Record<string, unknown> = {},
  headers?: HeadersInit,
): Response {
  return apiJson({ code, message, ...extra }, { status, headers });
}

// The Admin API's errors have one shape each, whatever the resource (the house rules): 400
// `invalid_input` with `fields`, 404 `not_found`, and 409 `conflict` for a stale `version`.

/** A 400 carrying each field's messages, as the page form shows them. */
export function invalidFields(fields: Record<string, string[]>, message = "Please correct the errors below."): Response {
  return apiError(400, "invalid_input", message, { fields });
}

export function invalidInput(error: ZodError, message?: string): Response {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const name = issue.path.join(".") || "form";
    (fields[name] ??= []).push(issue.message);
  }
  return invalidFields(fields, message);
}

/** A 404: no `what` ("article", "reading list") has the id the path names. */
export const notFoundAnswer = (what: string) => apiError(404, "not_found", `No ${what} has this id.`);

/**
 * A 409 for a change over a `version` that is no longer the newest: nothing was written.
 * `current` is what is there now (as a GET answers it), `by` who changed it and `at` when (ISO).
 */
export function conflictAnswer(what: string, current: object, by: string, at: string): Response {
  const when = at || "an unknown time";
  return apiError(409, "conflict", `This ${what} was changed by ${by} at ${when} since the version you read: nothing was written.`, {
    current,
    by,
    at,
  });
}

/** What a create or a save answers: the row (201 at its address for a new one), 404, 400 with the fields, or 409 with what is there now. */
export function savedAnswer<T extends LastSave>(
  result: SaveResult<T>,
  what: string,
  show: (row: T) => object,
  created?: (row: T) => string,
): Response {
  if (result.ok) {
    if (!created) return apiJson(show(result.value));
    return apiJson(show(result.value), { status: 201, headers: { Location: created(result.value) } });
  }
  if (result.reason === "not-found") return notFoundAnswer(what);
  if (result.reason === "invalid") return invalidFields(result.fields);
  const { current } = result;
  return conflictAnswer(what, show(current), current.updatedBy ?? "someone else", current.updatedAt ?? "");
}

class Refusal extends Error {
  constructor(readonly response: Response) {
    super("refused");
  }
}

function refuse(status: number, code: string, message: string, headers?: HeadersInit): never {
  throw new Refusal(apiError(status, code, message, {}, headers));
}

/** Deeper than any endpoint's input goes; walking JSON nested thousands deep would overflow the stack. */
const MAX_NESTING = 32;

function storable(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (depth >= MAX_NESTING) return value === null || typeof value !== "object";
  if (Array.isArray(value)) return value.every((v) => storable(v, depth + 1));
  if (value && typeof value === "object") return Object.entries(value).every(([k, v]) => isStorableText(k) && storable(v, depth + 1));
  return true;
}

const TOO_LARGE = "The body is too large.";
const UNREADABLE = "The body could not be read as JSON or as a form.";

/** The body as a plain object: JSON, or a form's fields (a repeated field becomes a list). */
async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  let value: unknown;
  if (type.includes("application/json")) {
    const bytes = await readBodyBytes(request, maxBytes);
    if (bytes === "too-large") refuse(413, "too_large", TOO_LARGE);
    if (bytes === "unreadable") refuse(400, "unreadable_body", UNREADABLE);
    const text = new TextDecoder().decode(bytes);
    try {
      value = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      refuse(400, "unreadable_body", UNREADABLE);
    }
  } else if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    const form = await readFormBody(request, { maxBytes, maxFields: MAX_FORM_FIELDS });
    if (form === "too-large") refuse(413, "too_large", TOO_LARGE);
    if (form === "too-many-fields") refuse(413, "too_many_fields", "The form has too many fields.");
    if (form === "unreadable") refuse(400, "unreadable_body", UNREADABLE);
    const fields: Record<string, string | string[]> = {};
    for (const [name, v] of form) {
      if (typeof v !== "string") continue;
      const held = fields[name];
      if (held === undefined) fields[name] = v;
      else if (Array.isArray(held)) held.push(v);
      else fields[name] = [held, v];
    }
    value = fields;
  } else {
    value = {};
  }
  if (!storable(value)) refuse(400, "unreadable_body", "The body holds characters that cannot be stored, or is nested too deeply.");
  return value;
}

/** The request's values of the headers the endpoint declares, under the names it declares them by. */
function declaredHeaders(e: Endpoint, request: Request): Record<string, string> {
  const shape = (e.headers as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const found: Record<string, string> = {};
  for (const name of Object.keys(shape)) {
    const value = request.headers.get(name);
    if (value !== null) found[name] = value;
  }
  return found;
}

function parse<S extends ZodTypeAny>(schema: S | undefined, value: unknown): z.output<S> | undefined {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Refusal(invalidInput(parsed.error));
  return parsed.data;
}

/**
 * The loader and action of a resource route serving the endpoints of one path (one or more
 * methods). Remix sends GET and HEAD to the loader and every other method to the action.
 */
export function apiRoute(...served: Served[]) {
  const allow = [...new Set(served.flatMap(({ endpoint: e }) => (e.method === "get" ? ["GET", "HEAD"] : [e.method.toUpperCase()])))].join(
    ", ",
  );

  const serve = withSecurityHeaders(
    async ({ request, params, context }: { request: Request; params: Record<string, string | undefined>; context: AppLoadContext }) => {
      const method = request.method.toLowerCase();
      const match =
        served.find(({ endpoint: e }) => e.method === method) ??
        (method === "head" ? served.find(({ endpoint: e }) => e.method === "get") : undefined);
      if (!match) return apiError(405, "method_not_allowed", `${request.method} is not allowed here.`, {}, { Allow: allow });
      const { endpoint: e, handle } = match;
      // The Admin API (ADR 074) knows its caller by the key alone, and logs every call a key makes.
      let key: ApiKey | undefined;
      const answer = await (async () => {
        try {
          const asker = requestContext({ request, context });
          let user: User | undefined;
          if (e.access === "desk-key") {
            const found = await deskKeyFor(request, await asker.db());
            if (found === "missing")
              refuse(401, "missing_key", "Send a staff API key as `Authorization: Bearer <key>`.", { "WWW-Authenticate": "Bearer" });
            if (found === "invalid")
              refuse(401, "invalid_key", "The API key is malformed, unknown or revoked.", {
                "WWW-Authenticate": 'Bearer error="invalid_token"',
              });
            key = found;
            if (!mayAct(key.roles, e.deskAction!)) refuse(403, "forbidden", "This key's roles may not do this.");
          } else {
            if (
              e.method !== "get" &&
              e.method !== "head" &&
              isCrossSite(request.headers, [new URL(config().siteUrl).origin, new URL(request.url).origin])
            )
              refuse(403, "cross_site", CROSS_SITE_REFUSED);
            user = await asker.user();
            if (e.access !== "public" && !user) refuse(401, "not_signed_in", "Please sign in to use this service.");
            if (e.access === "subscriber" && !(await asker.subscriber()))
              refuse(403, "not_a_subscriber", "This service is for subscribers.");
          }
          const url = new URL(request.url);
          const query = parse(e.query, Object.fromEntries(url.searchParams));
          const routeParams = parse(e.params, params);
          const headers = parse(e.headers, declaredHeaders(e, request));
          const body = e.body ? parse(e.body, await readBody(request, e.maxBodyBytes ?? MAX_BODY_BYTES)) : undefined;
          return await handle({ request, context, query, params: routeParams, body, headers, user, key } as Call<Endpoint>);
        } catch (error) {
          if (error instanceof Refusal) return error.response;
          if (error instanceof Response) throw error;
          log.error(`${request.method} ${new URL(request.url).pathname} failed`, { error });
          return apiError(500, "server_error", GENERIC_ERROR);
        }
      })();
      if (key) await recordDeskCall(await requestContext({ request, context }).db(), key, request, answer.status);
      return answer;
    },
  );
  return { loader: serve, action: serve };
}
