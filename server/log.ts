// The server's log: one JSON object a line, for a log collector to read. Information goes to
// stdout, warnings and errors to stderr. While a request is being answered, every line carries
// its id (the balancer's X-Request-Id, or one made here), however deep the code that logs.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export type LogLevel = "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;

interface RequestScope {
  requestId: string;
}

// The production server (build/server.js) and the Remix build each bundle their own copy of
// this module: the scope lives on the global object so that both copies see the same one.
const SCOPE_KEY = Symbol.for("meridian.log.request-scope");
const scopes: AsyncLocalStorage<RequestScope> = ((globalThis as Record<symbol, unknown>)[SCOPE_KEY] ??=
  new AsyncLocalStorage<RequestScope>()) as AsyncLocalStorage<RequestScope>;

/** An id a balancer may send (nginx's $request_id, a UUID, a trace id); anything else is replaced. */
const ACCEPTED_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** The request's id: the one the balancer sent if it is sane, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const sent = Array.isArray(header) ? header[0] : header;
  return sent && ACCEPTED_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Runs fn so that whatever it logs, now or in callbacks it starts, names this request. */
export function inRequestScope<T>(requestId: string, fn: () => T): T {
  return scopes.run({ requestId }, fn);
}

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return scopes.getStore()?.requestId;
}

/** An error as a log collector can index it, stack included (it never reaches a reader). */
function describeError(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === "object" && error !== null ? error : String(error);
  const described: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) described.code = code;
  if (error.cause !== undefined) described.cause = describeError(error.cause);
  return described;
}

/** The line written for an event (exported for the tests). */
export function logLine(level: LogLevel, message: string, fields: LogFields = {}, now = new Date()): string {
  const entry: Record<string, unknown> = { time: now.toISOString(), level, pid: process.pid, msg: message };
  const scope = scopes.getStore();
  if (scope) entry.requestId = scope.requestId;
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) entry[name] = name === "error" || value instanceof Error ? describeError(value) : value;
  }
  try {
    return JSON.stringify(entry);
  } catch {
    // A field that cannot be written (a cycle, a BigInt): the event itself still is.
    return JSON.stringify({ time: entry.time, level, pid: process.pid, msg: message, requestId: entry.requestId });
  }
}

function write(level: LogLevel, message: string, fields?: LogFields): void {
  (level === "info" ? process.stdout : process.stderr).write(`${logLine(level, message, fields)}\n`);
}

export const log = {
  info: (message: string, fields?: LogFields) => write("info", message, fields),
  warn: (message: string, fields?: LogFields) => write("warn", message, fields),
  error: (message: string, fields?: LogFields) => write("error", message, fields),
};
