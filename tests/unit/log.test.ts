import { describe, expect, it } from "vitest";
import { inRequestScope, logLine, requestIdFrom } from "~/server/log";

const NOW = new Date("2026-03-02T09:15:00.000Z");
const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

describe("the server's log", () => {
  it("writes one JSON object a line, with the time, level, process and message", () => {
    const line = logLine("info", "Meridian Review listening on 127.0.0.1:3000", { port: 3000 }, NOW);
    expect(line).not.toContain("\n");
    expect(parse(line)).toEqual({
      time: "2026-03-02T09:15:00.000Z",
      level: "info",
      pid: process.pid,
      msg: "Meridian Review listening on 127.0.0.1:3000",
      port: 3000,
    });
  });

  it("keeps an error's type, message, code, stack and cause, on one line", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const entry = parse(logLine("error", "GET /the-latest failed", { error: new Error("no database", { cause }) }, NOW));
    const error = entry.error as { type: string; message: string; stack: string; cause: { code: string; message: string } };
    expect(error.type).toBe("Error");
    expect(error.message).toBe("no database");
    expect(error.stack).toMatch(/^Error: no database\n\s+at /);
    expect(error.cause).toMatchObject({ message: "connect ECONNREFUSED 127.0.0.1:5432", code: "ECONNREFUSED" });
  });

  it("still writes the event when a field cannot be written", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(parse(logLine("warn", "odd field", { detail: cyclic }, NOW))).toMatchObject({ level: "warn", msg: "odd field" });
  });

  it("names the request being answered in every line, across awaits, and no other", async () => {
    const lines = await inRequestScope("req-1", async () => {
      const before = logLine("info", "before");
      await new Promise((resolve) => setImmediate(resolve));
      return [before, logLine("info", "after")];
    });
    expect(lines.map((line) => parse(line).requestId)).toEqual(["req-1", "req-1"]);
    expect(parse(logLine("info", "outside")).requestId).toBeUndefined();
  });

  it("takes the balancer's request id when it is sane, and makes one otherwise", () => {
    expect(requestIdFrom("7f3a9c21e0b84d55a1c0")).toBe("7f3a9c21e0b84d55a1c0");
    expect(requestIdFrom(["trace-1", "trace-2"])).toBe("trace-1");
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    // Missing, a forged log line, or too long to be an id.
    for (const sent of [undefined, "", 'x"}\n{"level":"info', "a".repeat(129)]) expect(requestIdFrom(sent)).toMatch(uuid);
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});
