import http from "node:http";
import { once } from "node:events";
import type { RunningServer } from "./server";

/**
 * A form post the server has begun and not finished: with "Expect: 100-continue" the server
 * says Continue once it has the request, and the body goes only when send() is called. Resolves
 * once the server has said Continue; send() resolves with the whole answer.
 */
export async function heldFormPost(
  baseUrl: string,
  path: string,
  form: Record<string, string>,
  options: { agent?: http.Agent | false; headers?: Record<string, string> } = {},
): Promise<{ send: () => Promise<http.IncomingMessage> }> {
  const { hostname, port } = new URL(baseUrl);
  const body = new URLSearchParams(form).toString();
  const req = http.request({
    hostname,
    port,
    path,
    method: "POST",
    agent: options.agent ?? false,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(Buffer.byteLength(body)),
      Origin: baseUrl,
      Expect: "100-continue",
      ...options.headers,
    },
  });
  const answered = once(req, "response") as Promise<[http.IncomingMessage]>;
  req.flushHeaders();
  await once(req, "continue");
  return {
    async send() {
      req.end(body);
      const [res] = await answered;
      res.resume();
      await once(res, "end");
      return res;
    },
  };
}

/** Sends the server SIGTERM and resolves once it says it has stopped taking connections, with its exit to come. */
export async function sigterm(server: RunningServer): Promise<{ exited: Promise<[number | null, NodeJS.Signals | null]> }> {
  const exited = once(server.child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stopping = new Promise<void>((resolve) => {
    server.child.stdout!.on("data", (chunk: Buffer) => {
      if (String(chunk).includes("SIGTERM")) resolve();
    });
  });
  server.child.kill("SIGTERM");
  await stopping;
  return { exited };
}
