import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { suggestThrottle } from "~/app/lib/search/suggest-throttle";
import { SUGGEST_THROTTLE_MS } from "~/shared/suggest";

interface Call {
  term: string;
  signal: AbortSignal;
  resolve: (answer: string) => void;
  reject: (error: Error) => void;
}

function setup() {
  const calls: Call[] = [];
  const answers: string[] = [];
  let clears = 0;
  const throttle = suggestThrottle<string>({
    load: (term, signal) => new Promise((resolve, reject) => calls.push({ term, signal, resolve, reject })),
    onAnswer: (term, answer) => answers.push(`${term}=${answer}`),
    onClear: () => (clears += 1),
  });
  return { throttle, calls, answers, terms: () => calls.map((c) => c.term), clears: () => clears };
}

// Lets the answers' promise callbacks run.
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("suggestThrottle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks nothing below three characters, counting trimmed text with its spaces folded", () => {
    const { throttle, terms, clears } = setup();
    throttle.update("l");
    throttle.update("le");
    throttle.update("  le   ");
    vi.advanceTimersByTime(5 * SUGGEST_THROTTLE_MS);
    expect(terms()).toEqual([]);
    expect(clears()).toBe(3);
    throttle.update(" le  a ");
    expect(terms()).toEqual(["le a"]);
  });

  it("asks at once, then at most once per 350 ms, with the latest text", () => {
    const { throttle, terms } = setup();
    throttle.update("lea");
    expect(terms()).toEqual(["lea"]);
    vi.advanceTimersByTime(100);
    throttle.update("lead");
    vi.advanceTimersByTime(100);
    throttle.update("leade");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS - 201);
    expect(terms()).toEqual(["lea"]);
    vi.advanceTimersByTime(1);
    expect(terms()).toEqual(["lea", "leade"]);
    // Typing on keeps the pace: the next one waits for the next 350 ms.
    throttle.update("leader");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS - 1);
    expect(terms()).toEqual(["lea", "leade"]);
    vi.advanceTimersByTime(1);
    expect(terms()).toEqual(["lea", "leade", "leader"]);
  });

  it("asks at once again after a pause, and never twice in a row for the same term", () => {
    const { throttle, terms } = setup();
    throttle.update("lead");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    throttle.update("lead ");
    throttle.update("leads");
    expect(terms()).toEqual(["lead", "leads"]);
    // Typed and taken back within the wait: the field is where it was, so nothing is asked.
    throttle.update("leadsx");
    throttle.update("leads");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    expect(terms()).toEqual(["lead", "leads"]);
  });

  it("drops an answer that comes back after a newer term's", async () => {
    const { throttle, calls, answers } = setup();
    throttle.update("lea");
    throttle.update("lead");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    const [older, newer] = calls;
    newer!.resolve("B");
    await settle();
    older!.resolve("A");
    await settle();
    expect(answers).toEqual(["lead=B"]);
  });

  it("shows answers that come back in order as they come", async () => {
    const { throttle, calls, answers } = setup();
    throttle.update("lea");
    throttle.update("lead");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    calls[0]!.resolve("A");
    await settle();
    calls[1]!.resolve("B");
    await settle();
    expect(answers).toEqual(["lea=A", "lead=B"]);
  });

  it("drops answers still on their way when the text becomes too short, and asks again when it grows back", async () => {
    const { throttle, calls, answers, terms } = setup();
    throttle.update("lea");
    throttle.update("le");
    calls[0]!.resolve("A");
    await settle();
    expect(answers).toEqual([]);
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    throttle.update("lea");
    expect(terms()).toEqual(["lea", "lea"]);
    calls[1]!.resolve("A2");
    await settle();
    expect(answers).toEqual(["lea=A2"]);
  });

  it("cancels a waiting request when the text becomes too short", () => {
    const { throttle, terms } = setup();
    throttle.update("lea");
    throttle.update("lead");
    throttle.update("");
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    expect(terms()).toEqual(["lea"]);
  });

  it("keeps what it showed when a request fails", async () => {
    const { throttle, calls, answers } = setup();
    throttle.update("lea");
    calls[0]!.resolve("A");
    await settle();
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    throttle.update("lead");
    calls[1]!.reject(new Error("offline"));
    await settle();
    expect(answers).toEqual(["lea=A"]);
  });

  it("on dispose aborts what is on its way, and asks and shows nothing more", async () => {
    const { throttle, calls, answers } = setup();
    throttle.update("lea");
    throttle.update("lead");
    throttle.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    vi.advanceTimersByTime(SUGGEST_THROTTLE_MS);
    expect(calls).toHaveLength(1);
    calls[0]!.resolve("A");
    await settle();
    expect(answers).toEqual([]);
  });
});
