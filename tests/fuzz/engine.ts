import fc from "fast-check";
import { encoding, fieldOccurrences, hostileText, origin, type FieldValue, type OriginKind, type Piece } from "./arbitraries";
import type { ActionTarget, FuzzCase } from "./actions";
import type { World } from "./world";

// Turns an action's description into requests, sends them to the built server and counts the
// answers by status class. Shared by the bounded run in `npm test` and by `npm run fuzz`.

export function caseArbitrary(target: ActionTarget): fc.Arbitrary<FuzzCase> {
  const declared = Object.entries(target.fields).map(([name, plausible]) =>
    fieldOccurrences(plausible).map((values) => values.map((v): [string, FieldValue] => [name, v])),
  );
  const extra = fc.array(
    fc.tuple(
      hostileText.map((t) => t.slice(0, 30)),
      hostileText.map((t): FieldValue => [{ text: t }]),
    ),
    { maxLength: 2 },
  );
  return fc.record({
    actor: fc.constantFrom(...target.actors),
    path: target.path,
    fields: fc.tuple(fc.tuple(...declared), extra).map(([d, e]) => [...d.flat(), ...e]),
    encoding,
    origin,
    headers: target.headers ?? fc.constant({}),
    replay: fc.boolean(),
  });
}

const utf8 = (text: string) => Buffer.from(text, "utf8");
/** Raw %XX escapes as the bytes they stand for; anything else literally. */
const rawBytes = (raw: string) =>
  Buffer.from(
    raw.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  );
const pieceBytes = (p: Piece) => ("text" in p ? utf8(p.text) : rawBytes(p.raw));
const percent = (bytes: Buffer) =>
  [...bytes]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
const urlPiece = (p: Piece) => ("text" in p ? percent(utf8(p.text)) : p.raw);
/** As JSON.parse will hand it to the server: lone surrogates survive as \uXXXX escapes. */
const jsonValue = (v: FieldValue) =>
  v
    .map((p) =>
      "text" in p ? p.text : decodeURIComponent(p.raw.replace(/%(?![0-9A-Fa-f]{2})/g, "%25").replace(/%([89A-Fa-f][0-9A-Fa-f])/g, "")),
    )
    .join("");

export function encodeBody(c: FuzzCase): { body: Buffer | string; contentType?: string } {
  const urlencoded = c.fields.map(([name, value]) => `${percent(utf8(name))}=${value.map(urlPiece).join("")}`).join("&");
  switch (c.encoding) {
    case "urlencoded":
      return { body: urlencoded, contentType: "application/x-www-form-urlencoded" };
    case "text":
      return { body: urlencoded, contentType: "text/plain;charset=UTF-8" };
    case "none":
      return { body: urlencoded };
    case "bad-multipart":
      return { body: urlencoded, contentType: "multipart/form-data" };
    case "json": {
      const object: Record<string, string | string[]> = {};
      for (const [name, value] of c.fields) {
        const text = jsonValue(value);
        const had = object[name];
        object[name] = had === undefined ? text : [...(Array.isArray(had) ? had : [had]), text];
      }
      return { body: JSON.stringify(object), contentType: "application/json" };
    }
    case "multipart": {
      const boundary = "----fuzz7MA4YWxkTrZu0gW";
      const parts = c.fields.map(([name, value]) =>
        Buffer.concat([
          utf8(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, "_")}"\r\n\r\n`),
          ...value.map(pieceBytes),
          utf8("\r\n"),
        ]),
      );
      return { body: Buffer.concat([...parts, utf8(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
    }
  }
}

export function originHeaders(kind: OriginKind, baseUrl: string): Record<string, string> {
  switch (kind) {
    case "same":
      return { Origin: baseUrl };
    case "missing":
      return {};
    case "foreign":
      return { Origin: "https://evil.example" };
    case "null":
      return { Origin: "null" };
    case "cross-site-fetch":
      return { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
  }
}

/** Sends the case (twice when it is a replay) and gives the statuses. */
export const MAX_FORM_BYTES = 64 * 1024;
/** Stands for "connection closed while an oversized body was being sent". */
export const CLOSED_EARLY = 0;
/** Stands for "no answer at all" (the connection failed on a body of allowed size): a failure. */
export const NO_ANSWER = 599;

export async function send(world: World, target: ActionTarget, c: FuzzCase): Promise<number[]> {
  const method = target.method ?? "POST";
  const cookie = c.actor === "reader" ? world.hostile.cookieHeader() : c.actor === "staff" ? world.staff.cookieHeader() : "";
  const headers: Record<string, string> = { ...(cookie ? { Cookie: cookie } : {}), ...c.headers };
  let body: Buffer | string | undefined;
  if (method === "POST") {
    const encoded = encodeBody(c);
    body = encoded.body;
    Object.assign(headers, originHeaders(c.origin, world.baseUrl), encoded.contentType ? { "Content-Type": encoded.contentType } : {});
  }
  const bodyLength = body === undefined ? 0 : Buffer.byteLength(body);
  // The server may close the connection after refusing an oversized body: keep that
  // connection out of the pool the other requests share.
  if (bodyLength > MAX_FORM_BYTES) headers.Connection = "close";
  const statuses: number[] = [];
  for (let i = 0; i < (c.replay ? 2 : 1); i++) {
    try {
      const res = await fetch(world.baseUrl + c.path, {
        method,
        headers,
        body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
        redirect: "manual",
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    } catch (error) {
      // The server may answer 413 and close before an oversized body is all sent; a client
      // then sees the connection reset, not the answer. Anything else is a failure.
      statuses.push(bodyLength > MAX_FORM_BYTES ? CLOSED_EARLY : NO_ANSWER);
      if (bodyLength <= MAX_FORM_BYTES) console.error(`no answer: ${String((error as Error).cause ?? error)}`);
    }
  }
  return statuses;
}

export type StatusClass = "2xx" | "3xx" | "4xx" | "5xx" | "closed";
export interface Tally {
  target: string;
  bodies: number;
  answers: Record<StatusClass, number>;
  /** Cases answered 500 or above, with how to generate them again. */
  failures: { seed: number; index: number; statuses: number[]; crossSite: boolean; example: string }[];
}

export const statusClass = (status: number): StatusClass =>
  status === CLOSED_EARLY ? "closed" : status >= 500 ? "5xx" : status >= 400 ? "4xx" : status >= 300 ? "3xx" : "2xx";

/** A readable copy of a case: long values shortened, so a failure can be read and replayed. */
export function describeCase(c: FuzzCase): string {
  const short = (t: string) => (t.length > 80 ? `${t.slice(0, 40)}…(${t.length} chars)` : t);
  return JSON.stringify({ ...c, fields: c.fields.map(([n, v]) => [short(n), v.map((p) => ("text" in p ? { text: short(p.text) } : p))]) });
}

/**
 * Posts `runs` generated bodies for one action (the same bodies for the same seed), a few at a
 * time, and counts the answers.
 */
export async function fuzzTarget(
  world: World,
  target: ActionTarget,
  options: { runs: number; seed: number; concurrency?: number },
): Promise<Tally> {
  const cases = fc.sample(caseArbitrary(target), { numRuns: options.runs, seed: options.seed });
  const tally: Tally = { target: target.name, bodies: 0, answers: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, closed: 0 }, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const c = cases[index]!;
      const statuses = await send(world, target, c);
      tally.bodies += 1;
      for (const s of statuses) tally.answers[statusClass(s)] += 1;
      if (statuses.some((s) => s >= 500))
        tally.failures.push({
          seed: options.seed,
          index,
          statuses,
          crossSite: c.origin !== "same" && c.origin !== "missing",
          example: describeCase(c),
        });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return tally;
}
