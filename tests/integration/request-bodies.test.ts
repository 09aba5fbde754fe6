import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// Hostile bodies against the production build: a post sent chunked (no Content-Length) is
// refused once more than its limit has arrived, not read whole; a form of thousands of fields is
// refused before any code looks at its fields; and the process answers others meanwhile.

let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer();
}, 120_000);

afterAll(() => server?.stop());

/** Far more than any limit, and than what the connection's buffers hold on the way. */
const ENDLESS = 32 * 1024 * 1024;

interface Answer {
  status: number;
  text: string;
  /** What the client had sent when the answer came. */
  sentBefore: number;
}

/**
 * A post whose body goes out chunked, one piece after another, only as fast as the server reads
 * it, until `total` bytes or the answer, whichever comes first (then the client stops).
 */
function chunkedPost(path: string, contentType: string, piece: string) {
  const { hostname, port } = new URL(server.url);
  const req = http.request({
    hostname,
    port,
    path,
    method: "POST",
    agent: false,
    headers: { "Content-Type": contentType, "Transfer-Encoding": "chunked" },
  });
  const chunk = Buffer.from(piece);
  let sent = 0;
  let answered = false;
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on("response", (res) => {
      answered = true;
      const sentBefore = sent;
      let text = "";
      res.setEncoding("utf8").on("data", (part: string) => (text += part));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, text, sentBefore });
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
  });
  return {
    answer,
    answered: () => answered,
    /** Sends pieces until `total` bytes are out (or the answer came), then ends the body if `end`. */
    send(total: number, end: boolean): Promise<void> {
      return new Promise((resolve) => {
        const pump = () => {
          while (!answered && sent < total) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once("drain", pump);
          }
          if (end && !answered) req.end();
          resolve();
        };
        pump();
      });
    },
  };
}

const FORM = "application/x-www-form-urlencoded";

describe("a body sent chunked", () => {
  it("is refused with 413 once more than 64 KB of a form have arrived, and a guest's page answers while it is sent", async () => {
    const post = chunkedPost("/sign-in", FORM, `email=${"a".repeat(16 * 1024 - 6)}`);
    await post.send(16 * 1024, false);
    // The post is open, its body unfinished: the process serves a reader meanwhile.
    const page = await fetch(`${server.url}/the-latest`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("</html>");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(post.answered()).toBe(false);

    void post.send(ENDLESS, true);
    const answer = await post.answer;
    expect(answer.status).toBe(413);
    expect(answer.sentBefore).toBeLessThan(ENDLESS);
    // The connection it came on is the sender's problem; the process goes on serving.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it.each([
    ["the service API's JSON", "/api/user/register", "application/json", `{"email":"${"a".repeat(8000)}`],
    ["the service API's form", "/api/user/register", FORM, `email=${"a".repeat(8000)}`],
    ["the payment provider's callback", "/api/payments/webhook", "application/json", `{"id":"${"a".repeat(8000)}`],
    ["the one-click unsubscribe", "/newsletters/unsubscribe?token=any", FORM, `token=${"a".repeat(8000)}`],
  ])("is refused at its limit as it arrives by %s", async (_, path, type, piece) => {
    const post = chunkedPost(path, type, piece);
    void post.send(ENDLESS, true);
    const answer = await post.answer;
    expect(answer.status).toBe(413);
    expect(answer.sentBefore).toBeLessThan(ENDLESS);
  });
});

describe("a form of thousands of fields", () => {
  it.each(["/sign-in", "/register", "/forgot-password"])("is refused with 413 before its fields are looked at: %s", async (path) => {
    // 5,000 fields in 10 KB, well within the size limit.
    const post = chunkedPost(path, FORM, "a&".repeat(5_000));
    await post.send(1, true);
    const answer = await post.answer;
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("Form has too many fields");
  });

  it("is refused by the service API with its JSON error", async () => {
    const post = chunkedPost("/api/user/register", FORM, "email=a&".repeat(5_000));
    await post.send(1, true);
    const answer = await post.answer;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ code: "too_many_fields" });
  });
});
