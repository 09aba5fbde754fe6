import { normaliseQuery } from "~/shared/search-query";
import { SUGGEST_MIN_CHARS, SUGGEST_THROTTLE_MS } from "~/shared/suggest";

/** The time and timers the throttle runs on; tests give it fake ones. */
export interface Clock {
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SuggestThrottleOptions<T> {
  load: (term: string, signal: AbortSignal) => Promise<T>;
  /** An answer for `term`, never one older than an answer already given. */
  onAnswer: (term: string, answer: T) => void;
  /** The text became too short for suggestions: whatever was shown goes. */
  onClear: () => void;
  clock?: Clock;
  minChars?: number;
  wait?: number;
}

export interface SuggestThrottle {
  /** The field's text changed. */
  update: (text: string) => void;
  dispose: () => void;
}

/**
 * Asks for suggestions as the reader types: nothing below `minChars`, at most one request per
 * `wait` ms (at once when the last is that old, else the latest text when the wait is over), and
 * an answer that comes back after a newer one's, or after the text was cleared, is dropped.
 */
export function suggestThrottle<T>({
  load,
  onAnswer,
  onClear,
  clock = realClock,
  minChars = SUGGEST_MIN_CHARS,
  wait = SUGGEST_THROTTLE_MS,
}: SuggestThrottleOptions<T>): SuggestThrottle {
  let lastSentAt = -Infinity;
  let lastSent = "";
  let pending: string | null = null;
  let timer: unknown = null;
  // Requests are numbered; `shown` is the newest one answered, or the number when the text was cleared.
  let sent = 0;
  let shown = 0;
  const inFlight = new Set<AbortController>();

  const send = (term: string) => {
    const number = ++sent;
    lastSent = term;
    lastSentAt = clock.now();
    const controller = new AbortController();
    inFlight.add(controller);
    load(term, controller.signal)
      .then(
        (answer) => {
          if (number <= shown) return;
          shown = number;
          onAnswer(term, answer);
        },
        // A failed or aborted request leaves the suggestions as they were.
        () => undefined,
      )
      .finally(() => inFlight.delete(controller));
  };

  const flush = () => {
    timer = null;
    const term = pending;
    pending = null;
    if (term !== null && term !== lastSent) send(term);
  };

  const cancelTimer = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    pending = null;
  };

  return {
    update(text) {
      const term = normaliseQuery(text);
      if (term.length < minChars) {
        cancelTimer();
        lastSent = "";
        shown = sent;
        onClear();
        return;
      }
      if (timer !== null) {
        pending = term;
        return;
      }
      if (term === lastSent) return;
      const due = lastSentAt + wait - clock.now();
      if (due <= 0) {
        send(term);
      } else {
        pending = term;
        timer = clock.setTimeout(flush, due);
      }
    },
    dispose() {
      cancelTimer();
      shown = Infinity;
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
    },
  };
}
