import { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z, type ZodTypeAny } from "zod";
import type { DeskAction } from "~/server/desk/roles";

// The service API's contract (ADR 043): every endpoint's method, path, input and answers, as zod
// schemas. Routes parse their input with these schemas and the OpenAPI document at
// /api/openapi.json is generated from them, so the documentation cannot drift from the code.

export type Method = "get" | "head" | "post" | "put" | "patch" | "delete";

/**
 * Who may call: anyone, a signed-in reader (401 otherwise), a subscriber (401, then 403), or a
 * staff API key whose roles allow the endpoint's desk action (the Admin API, ADR 074: 401, then 403).
 */
export type Access = "public" | "reader" | "subscriber" | "desk-key";

export interface Answer {
  description: string;
  /** The JSON body; omitted for an answer without one. */
  schema?: ZodTypeAny;
  headers?: Record<string, string>;
}

export interface Endpoint<
  Q extends ZodTypeAny = ZodTypeAny,
  P extends ZodTypeAny = ZodTypeAny,
  B extends ZodTypeAny = ZodTypeAny,
  A extends Access = Access,
  H extends ZodTypeAny = ZodTypeAny,
> {
  method: Method;
  /** OpenAPI form, with {params}: "/service/user/list/{name}". */
  path: string;
  /** The operation's name in generated clients: unique across the document, camelCase. */
  operationId: string;
  summary: string;
  tag: string;
  access: A;
  /** For a "desk-key" endpoint: the action of server/desk/roles.ts the key's roles must allow. */
  deskAction?: DeskAction;
  query?: Q;
  params?: P;
  /** Read from a JSON body or a form (urlencoded or multipart): the same schema as the page's form. */
  body?: B;
  /**
   * Request headers the endpoint reads (an object schema whose keys are the headers' names, such
   * as `Idempotency-Key`): a header left out is absent from the object, and a bad one is a 400.
   */
  headers?: H;
  /** The largest body read, in bytes (64 KiB unless said): an article's text needs more. */
  maxBodyBytes?: number;
  /**
   * A multipart/form-data body holding a file, which the handler reads itself, as it arrives and
   * up to a limit of its own (an upload is far larger than the 64 KB any other body may be).
   */
  upload?: ZodTypeAny;
  /**
   * A body that is a file itself (any Content-Type; what it is is judged from its bytes), which the
   * handler reads as it arrives, up to a limit of its own: the body's description.
   */
  binary?: string;
  /** The answers besides the errors every endpoint may give (see `errorAnswers`). */
  answers: Record<number, Answer>;
}

/** Every error: `{ code, message }`, with the page form's field errors on bad input. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

const error = (description: string): Answer => ({ description, schema: apiErrorSchema });

/** The errors an endpoint can give besides its own, from what it declares. */
export function errorAnswers(endpoint: Endpoint): Record<number, Answer> {
  const answers: Record<number, Answer> = {};
  if (endpoint.query || endpoint.params || endpoint.body || endpoint.headers || endpoint.upload || endpoint.binary)
    answers[400] = error("The input is not valid: `fields` holds each field's errors.");
  if (endpoint.access === "desk-key") {
    answers[401] = {
      ...error("No API key, or one that is malformed, unknown or revoked."),
      headers: { "WWW-Authenticate": "Bearer" },
    };
    answers[403] = error("The key's roles may not do this.");
  } else if (endpoint.access !== "public") answers[401] = error("Not signed in.");
  if (endpoint.access === "subscriber") answers[403] = error("Signed in, but not a subscriber.");
  if (endpoint.access === "desk-key") {
    // Cookies never authenticate the Admin API, so another site's request is no threat to it.
    if (endpoint.method !== "get" && endpoint.method !== "head") answers[413] = error("The body is too large.");
  } else if (endpoint.method !== "get" && endpoint.method !== "head") {
    answers[403] ??= error("Another site started the request.");
    answers[413] = error("The body is too large.");
  }
  answers[405] = error("The method is not allowed on this path (the Allow header lists those that are).");
  return answers;
}

/** Declares an endpoint, keeping its schemas' types for the route that serves it. */
export function endpoint<
  Q extends ZodTypeAny,
  P extends ZodTypeAny,
  B extends ZodTypeAny,
  A extends Access,
  H extends ZodTypeAny = ZodTypeAny,
>(e: Endpoint<Q, P, B, A, H>): Endpoint<Q, P, B, A, H> {
  if ((e.access === "desk-key") !== (e.deskAction !== undefined))
    throw new Error(`${e.operationId}: an Admin API endpoint, and only one, names its desk action.`);
  return e;
}

/** The paths of every endpoint, as OpenAPI registrations. */
export function registry(endpoints: readonly Endpoint[]): OpenAPIRegistry {
  const r = new OpenAPIRegistry();
  r.registerComponent("securitySchemes", "session", { type: "apiKey", in: "cookie", name: "mr_session" });
  r.registerComponent("securitySchemes", "staffKey", {
    type: "http",
    scheme: "bearer",
    description:
      "A staff API key (`npm run staff -- add-key`), sent as `Authorization: Bearer mrk_…`. Admins revoke keys at /desk/api-keys.",
  });
  for (const e of endpoints) {
    const answers = { ...errorAnswers(e), ...e.answers };
    r.registerPath({
      method: e.method,
      path: e.path,
      operationId: e.operationId,
      summary: e.summary,
      tags: [e.tag],
      security: e.access === "public" ? [] : [e.access === "desk-key" ? { staffKey: [] } : { session: [] }],
      request: {
        ...(e.query ? { query: e.query as never } : {}),
        ...(e.params ? { params: e.params as never } : {}),
        ...(e.headers ? { headers: e.headers as never } : {}),
        ...(e.body
          ? {
              body: {
                content: {
                  "application/json": { schema: e.body },
                  "application/x-www-form-urlencoded": { schema: e.body },
                },
              },
            }
          : {}),
        ...(e.upload ? { body: { content: { "multipart/form-data": { schema: e.upload } } } } : {}),
        ...(e.binary
          ? { body: { description: e.binary, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } } }
          : {}),
      },
      responses: Object.fromEntries(
        Object.entries(answers).map(([status, a]) => [
          status,
          {
            description: a.description,
            ...(a.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(a.headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }]),
                  ),
                }
              : {}),
            ...(a.schema && e.method !== "head" ? { content: { "application/json": { schema: a.schema } } } : {}),
          },
        ]),
      ),
    });
  }
  return r;
}
