import { commaList } from "./comma-list";

// An ordered list the article form's combobox builds (ADR 085): the authors in byline order, or
// the topics with the primary first. Held as the values the form sends, each once.

export type PickedAction =
  | { type: "add"; values: string[] }
  | { type: "remove"; value: string }
  /** One place earlier (-1) or later (1); nothing at the list's end. */
  | { type: "move"; value: string; step: 1 | -1 };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function pickedList(state: string[], action: PickedAction): string[] {
  switch (action.type) {
    case "add": {
      const added = [...state];
      for (const value of action.values) if (!added.some((held) => same(held, value))) added.push(value);
      return added.length === state.length ? state : added;
    }
    case "remove":
      return state.filter((held) => held !== action.value);
    case "move": {
      const from = state.indexOf(action.value);
      const to = from + action.step;
      if (from < 0 || to < 0 || to >= state.length) return state;
      const moved = [...state];
      [moved[from], moved[to]] = [moved[to]!, moved[from]!];
      return moved;
    }
  }
}

/** Whether the list holds a value already, in any case (topics are names; "Name each topic once"). */
export const holds = (state: string[], value: string) => state.some((held) => same(held, value));

/**
 * What the form sends for the list, as the plain field would: the chosen values, then whatever
 * is typed and not chosen yet (so a Save sends it, and the server's messages speak of it).
 */
export const fieldValue = (state: string[], typed: string) => [...state, ...commaList(typed)].join(", ");
