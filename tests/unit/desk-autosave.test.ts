import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AUTOSAVE_IDLE_MS,
  autosaveAnswer,
  autosaver,
  REFUSED,
  SEE_BOTH,
  SESSION_ENDED,
  UNREACHABLE,
  type AutosaveAnswer,
  type AutosaveState,
} from "~/app/lib/desk/autosave";
import { fieldValue, pickedList } from "~/app/lib/desk/picked-list";

// The article form's autosave as a scheduler (ADR 085), on Vitest's clock: when it saves, with
// which version, and when it stops; and the list the authors' and topics' comboboxes build.

interface Sent {
  form: URLSearchParams;
  keepalive: boolean;
  answer: (answer: AutosaveAnswer) => void;
  fail: () => void;
}

function setup() {
  const form = new URLSearchParams({ title: "A", version: "1" });
  const sent: Sent[] = [];
  const states: AutosaveState[] = [];
  const saver = autosaver({
    read: () => new URLSearchParams(form),
    send: (body, keepalive) =>
      new Promise((resolve, reject) => sent.push({ form: body, keepalive, answer: resolve, fail: () => reject(new Error("offline")) })),
    onState: (state) => states.push(state),
    onVersion: (version) => form.set("version", String(version)),
  });
  const type = (title: string) => {
    form.set("title", title);
    saver.changed();
  };
  return { form, sent, states, saver, type, last: () => states.at(-1) };
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const saved = (version: number): AutosaveAnswer => ({ ok: true, version, savedAt: "2026-05-14T14:02:09.000Z" });

describe("autosaver", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("saves once the editor has paused, naming the version the last save was given", async () => {
    const { sent, type, last, form } = setup();
    type("AB");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS - 1);
    type("ABC");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent.map((s) => s.form.toString())).toEqual(["title=ABC&version=1"]);
    expect(last()).toEqual({ kind: "saving" });
    sent[0]!.answer(saved(2));
    await settle();
    expect(last()).toEqual({ kind: "saved", at: "2026-05-14T14:02:09.000Z" });
    expect(form.get("version")).toBe("2");
    type("ABCD");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS);
    expect(sent[1]!.form.toString()).toBe("title=ABCD&version=2");
  });

  it("saves nothing when the form is back as it was saved", () => {
    const { sent, type } = setup();
    type("AB");
    type("A");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS * 2);
    expect(sent).toEqual([]);
  });

  it("sends one save at a time, and the changes made meanwhile after it, with its version", async () => {
    const { sent, type, saver } = setup();
    type("AB");
    saver.flush(false);
    expect(saver.busy()).toBe(true);
    type("ABC");
    saver.flush(true);
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS * 2);
    expect(sent).toHaveLength(1);
    sent[0]!.answer(saved(2));
    await settle();
    expect(saver.busy()).toBe(false);
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS);
    expect(sent.map((s) => s.form.toString())).toEqual(["title=AB&version=1", "title=ABC&version=2"]);
  });

  it("asks for a keepalive save when the page is going away, and says when the desk cannot be reached", async () => {
    const { sent, type, saver, last } = setup();
    type("AB");
    saver.flush(true);
    expect(sent[0]!.keepalive).toBe(true);
    sent[0]!.fail();
    await settle();
    expect(last()).toEqual({ kind: "failed", message: UNREACHABLE });
    // The next change tries again.
    type("ABC");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS);
    expect(sent).toHaveLength(2);
  });

  it("stops for good on an answer that another save cannot cure", async () => {
    const { sent, type, last } = setup();
    type("AB");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS);
    sent[0]!.answer({
      ok: false,
      stop: true,
      message: "This article was changed by Ben Desk at 2026-05-14 14:01 UTC since you opened it.",
    });
    await settle();
    expect(last()).toEqual({
      kind: "stopped",
      message: "This article was changed by Ben Desk at 2026-05-14 14:01 UTC since you opened it.",
    });
    type("ABC");
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS * 2);
    expect(sent).toHaveLength(1);
  });

  it("holds while the Save button saves, and lets the Save button wait for a save on its way", async () => {
    const { sent, type, saver } = setup();
    type("AB");
    saver.hold();
    vi.advanceTimersByTime(AUTOSAVE_IDLE_MS * 2);
    expect(sent).toEqual([]);
    saver.flush(false);
    let settled = false;
    void saver.settled().then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    sent[0]!.answer(saved(2));
    await settle();
    expect(settled).toBe(true);
  });
});

describe("autosaveAnswer", () => {
  const answer = (status: number, body: unknown, type = "basic") => autosaveAnswer({ status, type }, body);

  it("reads a save, a conflict, a state, a field's message and a desk session that ended", () => {
    expect(answer(200, { version: 4, savedAt: "2026-05-14T14:02:09.000Z" })).toEqual(saved(4));
    expect(
      answer(409, { code: "conflict", message: "This article was changed by Ben Desk at 2026-05-14 14:01 UTC since you opened it." }),
    ).toEqual({
      ok: false,
      stop: true,
      message: `This article was changed by Ben Desk at 2026-05-14 14:01 UTC since you opened it. ${SEE_BOTH}`,
    });
    expect(answer(409, { code: "wrong_state", message: "Autosave is off." })).toEqual({
      ok: false,
      stop: true,
      message: "Autosave is off.",
    });
    expect(
      answer(400, { code: "invalid_input", message: "Please correct the errors below.", fields: { title: ["Enter a title."] } }),
    ).toEqual({
      ok: false,
      stop: false,
      message: "Enter a title.",
    });
    expect(answer(0, null, "opaqueredirect")).toEqual({ ok: false, stop: true, message: SESSION_ENDED });
    expect(answer(404, null)).toEqual({ ok: false, stop: true, message: REFUSED });
    expect(answer(503, null)).toEqual({ ok: false, stop: false, message: "The desk answered 503. Your changes are still in the form." });
  });
});

describe("pickedList", () => {
  it("adds each value once in any case, moves one place within the list and removes", () => {
    const list = pickedList(["ada"], { type: "add", values: ["grace", "ADA", "linus"] });
    expect(list).toEqual(["ada", "grace", "linus"]);
    expect(pickedList(list, { type: "move", value: "linus", step: -1 })).toEqual(["ada", "linus", "grace"]);
    expect(pickedList(list, { type: "move", value: "ada", step: -1 })).toBe(list);
    expect(pickedList(list, { type: "move", value: "linus", step: 1 })).toBe(list);
    expect(pickedList(list, { type: "remove", value: "grace" })).toEqual(["ada", "linus"]);
  });

  it("sends what is chosen and then what is typed, as the plain field would", () => {
    expect(fieldValue(["ada", "grace"], "  linus , ")).toBe("ada, grace, linus");
    expect(fieldValue([], "")).toBe("");
  });
});
