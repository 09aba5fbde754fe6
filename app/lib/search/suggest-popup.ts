// A combobox's suggestion popup as state (WAI-ARIA APG, list autocomplete): what the last answer
// offered, in groups (the header search's topics, then titles; the desk's authors or topics,
// one group), whether the list is open, and which option is highlighted.

export interface SuggestOption {
  label: string;
  type: string;
  /** What choosing the option does, which also tells options apart: the page it leads to, or the value it adds. */
  value: string;
}

export interface SuggestPopup {
  groups: SuggestOption[][];
  /** Whether an answer came for the current text (an empty one is announced too). */
  answered: boolean;
  open: boolean;
  /** The highlighted option's index, counted through the groups in order, or -1. */
  active: number;
}

export type SuggestAction =
  /** `show`: the field has focus and the reader has not dismissed the list since typing. */
  | { type: "answer"; groups: SuggestOption[][]; show: boolean }
  | { type: "clear" }
  | { type: "close" }
  | { type: "move"; step: 1 | -1 }
  | { type: "unhighlight" };

export const emptyPopup: SuggestPopup = { groups: [], answered: false, open: false, active: -1 };

export const optionsOf = (popup: Pick<SuggestPopup, "groups">): SuggestOption[] => popup.groups.flat();

export function suggestPopup(state: SuggestPopup, action: SuggestAction): SuggestPopup {
  switch (action.type) {
    case "answer": {
      const options = optionsOf(action);
      const open = options.length > 0 && action.show;
      // A newer answer keeps the highlight on the same option, if it still offers it.
      const highlighted = state.open ? optionsOf(state)[state.active]?.value : undefined;
      const active = open && highlighted !== undefined ? options.findIndex((o) => o.value === highlighted) : -1;
      return { groups: action.groups, answered: true, open, active };
    }
    case "clear":
      return emptyPopup;
    case "close":
      return state.open || state.active !== -1 ? { ...state, open: false, active: -1 } : state;
    case "move": {
      const count = optionsOf(state).length;
      if (count === 0) return state;
      const first = action.step === 1 ? 0 : count - 1;
      if (!state.open) return { ...state, open: true, active: first };
      return { ...state, active: state.active === -1 ? first : (state.active + action.step + count) % count };
    }
    case "unhighlight":
      return state.active === -1 ? state : { ...state, active: -1 };
  }
}

/** What the live region says about the list. */
export function announcement(state: SuggestPopup): string {
  const count = optionsOf(state).length;
  if (!state.answered) return "";
  if (count === 0) return "No suggestions";
  if (!state.open) return "";
  return `${count} ${count === 1 ? "suggestion" : "suggestions"} available. Use the up and down arrow keys to choose.`;
}
