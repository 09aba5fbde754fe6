import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { hostileText, inUrl, origin, RAW_BYTES, type OriginKind } from "./arbitraries";
import type { Actor } from "./actions";
import { CLOSED_EARLY, MAX_FORM_BYTES, NO_ANSWER, originHeaders, statusClass, type Tally } from "./engine";
import { expectStillSignedIn, type World } from "./world";

// The service API under hostile calls: every operation its OpenAPI document (/api/openapi.json)
// lists, called with input generated from the operation's own schemas, bent out of shape (wrong
// types, missing, huge and repeated fields, unknown keys, reader A's and forged ids, NUL bytes,
// bad JSON, the wrong content type) by a guest and by reader B (the Admin API's by the admin's
// key mostly). Every answer must be one the
// document lists for the operation: below 500, and an error as JSON `{ code, message }`.

/** The part of JSON Schema the generated document uses. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
}

interface DocumentedAnswer {
  content?: Record<string, { schema: Schema }>;
  headers?: Record<string, { description?: string }>;
}
interface DocumentedOperation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, DocumentedAnswer>;
}
export interface ApiDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
}

export interface ApiOperation {
  /** "POST /service/commerce/address", as the test names it. */
  name: string;
  method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  operation: DocumentedOperation;
}

export async function loadApiDocument(baseUrl: string): Promise<ApiDocument> {
  const res = await fetch(`${baseUrl}/api/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  return (await res.json()) as ApiDocument;
}

export const operationName = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Every documented operation. */
export function apiOperations(document: ApiDocument): ApiOperation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: operationName(method, path),
      method: method.toUpperCase() as ApiOperation["method"],
      path,
      operation,
    })),
  );
}

// Input: values the schemas mean (mostly, so a call gets past its first checks), and values
// that break them.

/** Every id of readers A and B the world holds, and forged ones. */
const idPool = (w: World) => [
  ...new Set([
    ...Object.values(w.owner),
    ...Object.values(w.hostile.ids),
    "00000000-0000-0000-0000-000000000000",
    "1",
    "ord_AAAAAAAAAAAAAAAAAAAAAA",
  ]),
];

/** Plausible text for a field, by its name; anything else is one of the ids. */
function textFor(name: string, w: World): string[] {
  const n = name.toLowerCase();
  const [, year, month, slug] = w.article.path.split("/");
  // Not B's own address: a wrong password or a reset request for it could lock B's account.
  if (n.includes("email") || n === "username" || n === "from") return [w.owner.email, "nobody@example.org"];
  if (n.includes("password")) return ["wrong-password", "Another5!pass", "short"];
  if (n.includes("url") || n === "return" || n.includes("redirect"))
    return [w.article.path, `${w.baseUrl}${w.article.path}`, "https://evil.example/", "//evil.example", "javascript:alert(1)"];
  if (n.includes("country")) return ["US", "CA", "GB", "XX"];
  if (n.includes("postal")) return ["12207", "K1A 0B1", "ABC"];
  if (n === "state" || n === "region") return ["NY", "ON", "ZZ"];
  if (n.includes("shippingmethod")) return ["standard", "express", "international", "teleport"];
  if (n.includes("promo")) return ["WELCOME10", "SUMMER24", "EDITORS100", ""];
  if (n.includes("idempotency")) return [w.owner.orderKey, w.hostile.ids.orderKey, "AAAAAAAAAAAAAAAAAAAAAA", "short"];
  if (n.includes("checkout") || n === "uid") return [w.owner.checkoutId, w.hostile.ids.checkoutId, "chk_AAAAAAAAAAAAAAAAAAAAAA"];
  if (n === "name" || n === "target" || n === "topic")
    return [w.owner.folderSlug, w.hostile.ids.folderSlug, "Board prep 1", "leadership", "the-daily", "R&D"];
  if (n === "sharedwith") return ["a@example.org, b@example.org", w.owner.email];
  if (n === "term" || n === "q" || n === "querystring") return ["strategy", "a", "lead"];
  if (n === "year") return [year!, "1999"];
  if (n === "month") return [month!, "13"];
  if (n === "seotitle" || n === "seo" || n === "pageslug") return [slug!, "no-such-article"];
  if (n === "slugs") return ["new-manager-essentials", "ai-adoption-foundations", "no-such-course", "Not A Slug"];
  if (n === "number") return ["0", "1", "2", "99999"];
  if (n === "size") return ["1", "5", "10", "0", "500"];
  if (n === "productid") return ["1001", "1002", "1016", "1031", "0", "999999"];
  if (n === "quantity") return ["1", "2", "0", "1000"];
  // An article's fields (the Admin API): seed authors and topics, and ones no one has.
  if (n === "authors") return ["samira-castellanos", "callum-varghese", "no-such-author"];
  if (n === "topics") return ["Managing Yourself", "Economics & Society", "Mentoring & Sponsorship", "No Such Topic"];
  if (n === "slug" || n === "series") return ["fuzz-piece", "fuzz-piece-two", "find-a-sponsor-not-just-a-mentor", "Not A Slug"];
  // Dispatch and refunds (the Admin API's orders).
  if (n === "carrier") return ["ups", "Royal Mail", "Pigeon Post"];
  if (n === "trackingnumber") return ["1Z999AA10123456784", "RM 1234 5678 GB", "<b>"];
  if (n === "reason") return ["Customer called", ""];
  if (n === "published") return ["2026-03-10", "2026-04-01", "2026-02-30"];
  if (n === "at")
    return [new Date(Date.now() + 86_400_000).toISOString(), "2020-01-01T00:00:00Z", "2026-03-10T09:00:00+02:00", "next Tuesday"];
  if (n === "contenttype") return ["Article", "Interview"];
  return idPool(w);
}

const NUMBERS = [0, 1, 2, 5, 10, 1001, 1002, 1031, 3200, -1, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER + 2];

/** Values of the wrong type for any field: numbers, booleans, null, lists and objects, prototype keys. */
const wrongType: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  42,
  -1,
  1e308,
  true,
  null,
  [],
  {},
  ["a", "b"],
  [{ id: 1 }],
  { $gt: "" },
  JSON.parse('{"__proto__":{"polluted":1}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":1}}}'),
);

/**
 * How a case is made: from the world's ids and texts, and either `plain` (only what the schemas
 * mean, so the call reaches the code behind its checks) or hostile.
 */
interface Make {
  w: World;
  plain: boolean;
}

/**
 * The Admin API's articles: the world's own, and ids no article has. Never a seed article: the
 * other targets read those, and a key may unpublish or rename what it is given.
 */
const articleIds = (w: World) => [w.deskArticle.id, w.deskArticle.id, "99999999"];

/** The values a path parameter takes from the world, where its own schema would rarely name something that exists. */
function pathPool(path: string, name: string, w: World): string[] | undefined {
  if (path.startsWith("/desk/api/articles/")) return articleIds(w);
  // The Admin API's podcasts (ADR 083): a seed series and its first episodes, and ones no one has.
  if (path.startsWith("/desk/api/podcasts/")) return name === "series" ? ["the-long-way-back", "no-such-show"] : ["1", "2", "99999"];
  if (path.startsWith("/desk/api/videos/")) return ["6300001", "6300018", "99999"];
  // The Admin API's operations (ADR 088): readers A and B, and their orders (awaiting payment), by number.
  if (path.startsWith("/desk/api/readers/")) return [w.owner.userId, w.hostile.ids.userId, "no-such-reader"];
  if (path.startsWith("/desk/api/orders/")) return [w.owner.orderNumber, w.hostile.ids.orderNumber, "MR000000000"];
  return undefined;
}

/** A value for one field: what its schema means, else (unless plain) hostile text or the wrong type. */
function fieldValue(schema: Schema, name: string, m: Make, depth = 0): fc.Arbitrary<unknown> {
  if (m.plain) return plausible(schema, name, m, depth);
  return fc.oneof(
    { weight: 6, arbitrary: plausible(schema, name, m, depth) },
    { weight: 2, arbitrary: hostileText },
    { weight: 1, arbitrary: wrongType },
  );
}

function plausible(schema: Schema, name: string, m: Make, depth: number): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => plausible(b, name, m, depth)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const types = [schema.type ?? []].flat();
  const type = types.find((t) => t !== "null") ?? (schema.properties ? "object" : "string");
  switch (type) {
    case "integer":
    case "number":
      return fc.constantFrom(...NUMBERS, ...[schema.minimum, schema.maximum].filter((n): n is number => n !== undefined));
    case "boolean":
      return fc.boolean();
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(fieldValue(schema.items ?? {}, name, m, depth + 1), { maxLength: 3 });
    case "object":
      return depth > 3 ? fc.constant({}) : objectValue(schema, m, depth + 1);
    default:
      return fc.constantFrom(...textFor(name, m.w));
  }
}

/** An object of the schema's fields, some left out (unless plain: required ones always there), with an unknown field now and then. */
function objectValue(schema: Schema, m: Make, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([key, s]) => {
    const field = fieldValue(s, key, m, depth).map((v) => [key, v] as const);
    return m.plain && required.has(key) ? field : fc.option(field, { nil: undefined, freq: required.has(key) ? 12 : 3 });
  });
  const unknown = fc.array(
    fc.tuple(
      hostileText.map((t) => t.slice(0, 30)),
      fc.oneof(hostileText, wrongType),
    ),
    {
      maxLength: m.plain ? 0 : 1,
    },
  );
  return fc.tuple(fc.tuple(...fields), unknown).map(([known, extra]) => {
    const value: Record<string, unknown> = {};
    for (const [key, v] of [...known.filter((f) => f !== undefined), ...extra])
      Object.defineProperty(value, key, { value: v, enumerable: true });
    return value;
  });
}

/** Text as a URL carries it; a value of another type as JSON. */
const inUrlAsText = (v: unknown) => inUrl(typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/**
 * A path parameter: a plausible value or an id, else (unless plain) hostile text or escapes of
 * NUL, a slash or dots. (Escapes that do not decode go in queries and bodies: in a path, Remix
 * matches them as they are and logs a warning for each.)
 */
function pathValue(schema: Schema, name: string, m: Make, pool?: string[]): fc.Arbitrary<string> {
  const meant = (pool ? fc.constantFrom(...pool) : plausible(schema, name, m, 3)).map(inUrlAsText);
  if (m.plain) return meant;
  return fc
    .oneof(
      { weight: 5, arbitrary: meant },
      { weight: 1, arbitrary: hostileText.map((t) => inUrl(t.slice(0, 200))) },
      { weight: 1, arbitrary: fc.constantFrom("%00", "x%00y", "%2F", "%2e%2e%2Fx", "%5C", "%EF%BF%BD") },
    )
    .map((segment) => (segment === "" || /^(\.|%2e){1,2}$/i.test(segment) ? "x" : segment));
}

/**
 * The query: the documented parameters, some left out or repeated, and an unknown one now and
 * then. Values stay short enough for the server to read the request line (huge values go in bodies).
 */
function queryString(params: { name: string; required?: boolean; schema: Schema }[], m: Make): fc.Arbitrary<string> {
  const pair = (name: string, v: unknown) => `${inUrl(name)}=${inUrlAsText(v).slice(0, 1000)}`;
  const each = params.map((p) => {
    const once = fieldValue(p.schema, p.name, m).map((v) => [pair(p.name, v)]);
    if (m.plain) return p.required ? once : fc.oneof(fc.constant<string[]>([]), once);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant<string[]>([]) },
      { weight: 5, arbitrary: once },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_BYTES).map((raw) => [`${inUrl(p.name)}=${raw}`]) },
      {
        weight: 1,
        arbitrary: fc.array(fieldValue(p.schema, p.name, m), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => pair(p.name, v))),
      },
    );
  });
  const extra = fc.array(
    hostileText.map((t) => pair(t.slice(0, 20), t.slice(0, 50))),
    { maxLength: m.plain ? 0 : 1 },
  );
  return fc.tuple(fc.tuple(...each), extra).map(([pairs, more]) => {
    const all = [...pairs.flat(), ...more];
    return all.length > 0 ? `?${all.join("&")}` : "";
  });
}

// Bodies: JSON mostly, else a form, repeated keys, JSON that does not parse, the wrong content type.

type BodyKind = "json" | "form" | "multipart" | "duplicate-keys" | "bad-json" | "text" | "no-type" | "oversized";

const bodyKind: fc.Arbitrary<BodyKind> = fc.oneof(
  { weight: 14, arbitrary: fc.constant("json" as const) },
  { weight: 3, arbitrary: fc.constant("form" as const) },
  { weight: 2, arbitrary: fc.constantFrom("multipart" as const, "duplicate-keys" as const, "bad-json" as const) },
  { weight: 1, arbitrary: fc.constantFrom("text" as const, "no-type" as const, "oversized" as const) },
);

const BAD_JSON = [
  '{"a":',
  "{'a':1}",
  "[1,2",
  "\u0000",
  '{"a":"b"}\u0000',
  "NaN",
  "undefined",
  '{"a":1}{"b":2}',
  "\uFEFF{}",
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

/** A field's value as a form carries it: text as is, anything else as JSON. */
const formText = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));

/** The pairs a form would send for a value: an object's fields, a list's items repeated. */
function formPairs(value: unknown): [string, string][] {
  if (value && typeof value === "object" && !Array.isArray(value))
    return Object.entries(value).flatMap(([k, v]) =>
      Array.isArray(v) ? v.map((item): [string, string] => [k, formText(item)]) : [[k, formText(v)]],
    );
  return [["value", formText(value)]];
}

/** JSON with the object's first key written twice, the second time with another value. */
function duplicateKeys(value: unknown): string {
  const json = JSON.stringify(value) ?? "null";
  if (!value || typeof value !== "object" || Array.isArray(value) || Object.keys(value).length === 0) return json;
  const [key] = Object.keys(value);
  return `{${JSON.stringify(key)}:${JSON.stringify(["repeated", 1])},${json.slice(1)}`;
}

function encodeBody(kind: BodyKind, value: unknown, badJson: string): { body: string; contentType?: string } {
  const json = JSON.stringify(value) ?? "";
  switch (kind) {
    case "json":
      return { body: json, contentType: "application/json" };
    case "form":
      return { body: new URLSearchParams(formPairs(value)).toString(), contentType: "application/x-www-form-urlencoded" };
    case "multipart": {
      const boundary = "----apifuzz7MA4YWxkTrZu0gW";
      const parts = formPairs(value).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "_")}"\r\n\r\n${v}\r\n`,
      );
      return { body: `${parts.join("")}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
    }
    case "duplicate-keys":
      return { body: duplicateKeys(value), contentType: "application/json" };
    case "bad-json":
      return { body: badJson, contentType: "application/json; charset=utf-8" };
    case "text":
      return { body: json, contentType: "text/plain;charset=UTF-8" };
    case "no-type":
      return { body: json };
    case "oversized":
      return { body: JSON.stringify({ pad: "x".repeat(70_000), value }), contentType: "application/json" };
  }
}

/** One generated call of an operation. */
interface ApiCase {
  actor: Actor;
  /** The concrete path, with its query. */
  path: string;
  body?: { kind: BodyKind; value: unknown; badJson: string };
  origin: OriginKind;
  replay: boolean;
}

/** Whether an answer of the operation starts or ends a session (signing in, registering, signing out), by its documented Set-Cookie. */
const changesSession = (op: ApiOperation) =>
  Object.values(op.operation.responses).some((a) => /session/i.test(a.headers?.["Set-Cookie"]?.description ?? ""));

/**
 * Who calls: reader B mostly, else a guest. Calls that start or end a session are a guest's:
 * from B they would end B's own session (registering signs the new account in), and B's calls
 * after them would be a guest's.
 */
const actorFor = (op: ApiOperation): fc.Arbitrary<Actor> => {
  if (changesSession(op)) return fc.constant("guest");
  // The Admin API: the admin's key mostly; else cookies (B's, or the admin's own desk session), which never count, or nothing.
  if (op.operation.security?.some((scheme) => "staffKey" in scheme))
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant("key" as const) },
      { weight: 1, arbitrary: fc.constantFrom("reader", "staff", "guest") },
    );
  return fc.oneof({ weight: 2, arbitrary: fc.constant("reader" as const) }, { weight: 1, arbitrary: fc.constant("guest" as const) });
};

/** A third of the cases plain (input as the schemas mean it, as JSON, from the site itself), the rest hostile. */
function apiCaseArbitrary(op: ApiOperation, w: World): fc.Arbitrary<ApiCase> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }).chain((plain) => {
    const m: Make = { w, plain };
    const params = op.operation.parameters ?? [];
    const inPath = params.filter((p) => p.in === "path");
    const path = fc
      .tuple(...inPath.map((p) => pathValue(p.schema, p.name, m, pathPool(op.path, p.name, w))))
      .map((values) => inPath.reduce((at, p, i) => at.replace(`{${p.name}}`, values[i]!), op.path));
    const query = queryString(
      params.filter((p) => p.in === "query"),
      m,
    );
    const schema = op.operation.requestBody?.content["application/json"]?.schema ?? { type: "object" };
    const body =
      op.method === "GET" || op.method === "HEAD"
        ? fc.constant(undefined)
        : fc.record({
            kind: plain ? fc.constant("json" as const) : bodyKind,
            value: plain
              ? plausible(schema, "body", m, 0)
              : fc.oneof({ weight: 8, arbitrary: plausible(schema, "body", m, 0) }, { weight: 1, arbitrary: wrongType }),
            badJson: fc.constantFrom(...BAD_JSON),
          });
    return fc.record({
      actor: actorFor(op),
      path: fc.tuple(path, query).map(([p, q]) => p + q),
      body,
      origin: plain ? fc.constant("same" as const) : origin,
      replay: fc.boolean(),
    });
  });
}

// Checking each answer against the document.

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validators = new WeakMap<Schema, ValidateFunction>();

function validator(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** What is wrong with an answer, by the document; empty when nothing is. */
async function answerProblems(op: ApiOperation, res: Response): Promise<string[]> {
  const text = await res.text();
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`answered ${res.status}: ${text.slice(0, 200)}`);
  const documented = op.operation.responses[String(res.status)];
  if (!documented)
    problems.push(`answered ${res.status}, which the document does not list (${Object.keys(op.operation.responses).join(", ")})`);
  if (op.method === "HEAD") return problems;
  const isJson = /^application\/json/.test(res.headers.get("Content-Type") ?? "");
  let body: unknown;
  try {
    body = isJson ? JSON.parse(text) : undefined;
  } catch {
    problems.push(`answered ${res.status} with JSON that does not parse`);
  }
  if (res.status >= 400) {
    const error = body as { code?: unknown; message?: unknown } | undefined;
    if (typeof error?.code !== "string" || typeof error.message !== "string")
      problems.push(`answered ${res.status} without a JSON { code, message }: ${res.headers.get("Content-Type")} ${text.slice(0, 200)}`);
  }
  const schema = documented?.content?.["application/json"]?.schema;
  if (schema && body !== undefined) {
    const validate = validator(schema);
    if (!validate(body))
      problems.push(`answered ${res.status} with a body the document does not describe: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

/** Sends the case (twice when it is a replay): each answer's status and what is wrong with it. */
async function sendApiCase(world: World, op: ApiOperation, c: ApiCase): Promise<{ statuses: number[]; problems: string[] }> {
  const headers: Record<string, string> = { Accept: "application/json", ...originHeaders(c.origin, world.baseUrl) };
  if (c.actor === "reader") headers.Cookie = world.hostile.cookieHeader();
  if (c.actor === "staff") headers.Cookie = world.staff.cookieHeader();
  if (c.actor === "key") headers.Authorization = `Bearer ${world.keys.admin}`;
  const encoded = c.body ? encodeBody(c.body.kind, c.body.value, c.body.badJson) : undefined;
  if (encoded?.contentType) headers["Content-Type"] = encoded.contentType;
  const bodyLength = encoded ? Buffer.byteLength(encoded.body) : 0;
  // The server may close the connection after refusing an oversized body: keep it out of the shared pool.
  if (bodyLength > MAX_FORM_BYTES) headers.Connection = "close";
  const statuses: number[] = [];
  const problems: string[] = [];
  for (let i = 0; i < (c.replay ? 2 : 1); i++) {
    try {
      const res = await fetch(world.baseUrl + c.path, {
        method: op.method,
        headers,
        body: encoded?.body,
        redirect: "manual",
      });
      statuses.push(res.status);
      problems.push(...(await answerProblems(op, res)));
    } catch (error) {
      // An oversized body may be refused (413) and the connection closed while it is still being sent.
      const oversized = bodyLength > MAX_FORM_BYTES;
      statuses.push(oversized ? CLOSED_EARLY : NO_ANSWER);
      if (!oversized) problems.push(`no answer: ${String((error as Error).cause ?? error)}`);
    }
  }
  return { statuses, problems };
}

/** A readable copy of a case, long values shortened. */
function describeApiCase(c: ApiCase): string {
  const short = (t: string) => (t.length > 120 ? `${t.slice(0, 60)}…(${t.length} chars)` : t);
  return JSON.stringify({ ...c, path: short(c.path), body: c.body && { ...c.body, value: short(JSON.stringify(c.body.value) ?? "") } });
}

/** Calls one operation `runs` times with generated input (the same for the same seed), a few at a time, and counts the answers. */
export async function fuzzOperation(
  world: World,
  op: ApiOperation,
  options: { runs: number; seed: number; concurrency?: number },
): Promise<Tally> {
  await expectStillSignedIn(world);
  const cases = fc.sample(apiCaseArbitrary(op, world), { numRuns: options.runs, seed: options.seed });
  const tally: Tally = { target: op.name, bodies: 0, answers: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, closed: 0 }, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const c = cases[index]!;
      const { statuses, problems } = await sendApiCase(world, op, c);
      tally.bodies += 1;
      for (const s of statuses) tally.answers[statusClass(s)] += 1;
      if (problems.length > 0)
        tally.failures.push({
          seed: options.seed,
          index,
          statuses,
          crossSite: c.origin !== "same" && c.origin !== "missing",
          example: `${[...new Set(problems)].join("; ")} (${describeApiCase(c)})`,
        });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return tally;
}
