import { realClock, type Clock } from "~/app/lib/search/suggest-throttle";

// The article form's autosave (ADR 085) as a scheduler, without the page: it saves the form
// once the editor has paused for `idleMs`, or at once when asked (the page is being left), one
// save at a time, each naming the version the last one was given. A refusal that another save
// cannot cure (someone else saved meanwhile, the article went live) stops it for good.

/** The pause after a change before the form is autosaved. */
export const AUTOSAVE_IDLE_MS = 3_000;

export type AutosaveAnswer =
  | { ok: true; version: number; savedAt: string }
  /** `stop`: saving again cannot succeed; the editor must act (the conflict's message says how). */
  | { ok: false; stop: boolean; message: string };

export type AutosaveState =
  { kind: "saving" } | { kind: "saved"; at: string } | { kind: "failed"; message: string } | { kind: "stopped"; message: string };

export interface AutosaverOptions {
  /** The form as it would be posted now, the version it names included. */
  read: () => URLSearchParams;
  /** Posts it; `keepalive` when the page is going away. Resolves with the server's word, never rejects. */
  send: (form: URLSearchParams, keepalive: boolean) => Promise<AutosaveAnswer>;
  onState: (state: AutosaveState) => void;
  /** A save was accepted: the form names this version from now on. */
  onVersion: (version: number) => void;
  clock?: Clock;
  idleMs?: number;
}

export interface Autosaver {
  /** The form changed. */
  changed: () => void;
  /** Saves now if anything is unsaved (the page is being hidden or left). */
  flush: (keepalive: boolean) => void;
  /** The Save button is saving everything: no autosave is due until the form changes again. */
  hold: () => void;
  /** Whether a save is on its way (the Save button then waits for it, so as to name the newest version). */
  busy: () => boolean;
  /** Resolves once no save is on its way. */
  settled: () => Promise<void>;
  dispose: () => void;
}

export const UNREACHABLE = "The desk could not be reached. Your changes are still in the form.";
export const SESSION_ENDED = "Your desk session has ended. Copy your changes before you reload the page to enter your code.";
export const SEE_BOTH = "Press Save to see their version beside yours.";
export const REFUSED = "The desk refused the change. Copy your changes before you reload the page.";

/**
 * The autosave endpoint's answer as the scheduler takes it: a saved version; a conflict or a
 * state that stops autosave, with the desk's own message; a form the server would not save
 * (its first message), which the next change may cure; or anything else.
 */
export function autosaveAnswer(response: { status: number; type?: string }, body: unknown): AutosaveAnswer {
  const json = (body ?? {}) as { version?: unknown; savedAt?: unknown; code?: unknown; message?: unknown; fields?: unknown };
  const message = typeof json.message === "string" ? json.message : null;
  if (response.status === 200 && typeof json.version === "number" && typeof json.savedAt === "string")
    return { ok: true, version: json.version, savedAt: json.savedAt };
  // A desk session that ended answers with a redirect to the code's page, which fetch leaves unfollowed.
  if (response.type === "opaqueredirect") return { ok: false, stop: true, message: SESSION_ENDED };
  if (response.status === 409 && message)
    return { ok: false, stop: true, message: json.code === "conflict" ? `${message} ${SEE_BOTH}` : message };
  if (response.status === 400) {
    const fields = Object.values((json.fields ?? {}) as Record<string, unknown>);
    const first = fields.flatMap((messages) => (Array.isArray(messages) ? messages : [])).find((m) => typeof m === "string");
    return { ok: false, stop: false, message: first ?? message ?? REFUSED };
  }
  if (response.status === 403 || response.status === 404) return { ok: false, stop: true, message: REFUSED };
  return { ok: false, stop: false, message: `The desk answered ${response.status}. Your changes are still in the form.` };
}

export function autosaver({ read, send, onState, onVersion, clock = realClock, idleMs = AUTOSAVE_IDLE_MS }: AutosaverOptions): Autosaver {
  /** The fields alone: a save changes the version, not what there is to save. */
  const fieldsOf = (form: URLSearchParams) => {
    const fields = new URLSearchParams(form);
    fields.delete("version");
    return fields.toString();
  };
  let saved = fieldsOf(read());
  let timer: unknown = null;
  let inFlight: Promise<void> | null = null;
  /** A change came, or a flush was asked for, while a save was on its way. */
  let again = false;
  let stopped = false;
  let disposed = false;

  const cancel = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };
  const schedule = () => {
    cancel();
    timer = clock.setTimeout(() => save(false), idleMs);
  };

  const answered = (fields: string) => (answer: AutosaveAnswer) => {
    inFlight = null;
    if (disposed) return;
    if (answer.ok) {
      saved = fields;
      onVersion(answer.version);
      onState({ kind: "saved", at: answer.savedAt });
    } else if (answer.stop) {
      stopped = true;
      onState({ kind: "stopped", message: answer.message });
      return;
    } else {
      onState({ kind: "failed", message: answer.message });
    }
    if (again) {
      again = false;
      if (fieldsOf(read()) !== saved) schedule();
    }
  };

  function save(keepalive: boolean) {
    cancel();
    if (stopped || disposed) return;
    if (inFlight) {
      again = true;
      return;
    }
    const form = read();
    const fields = fieldsOf(form);
    if (fields === saved) return;
    onState({ kind: "saving" });
    const done = answered(fields);
    inFlight = send(form, keepalive).then(done, () => done({ ok: false, stop: false, message: UNREACHABLE }));
  }

  return {
    changed() {
      if (stopped || disposed) return;
      if (inFlight) again = true;
      else if (fieldsOf(read()) !== saved) schedule();
      else cancel();
    },
    flush: save,
    hold() {
      cancel();
      again = false;
    },
    busy: () => inFlight !== null,
    settled: () => inFlight ?? Promise.resolve(),
    dispose() {
      cancel();
      disposed = true;
    },
  };
}
