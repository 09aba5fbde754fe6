import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { ListSuggestion, SuggestedList } from "~/shared/list-suggestions";
import { commaList } from "~/app/lib/desk/comma-list";
import { fieldValue, holds, pickedList, type PickedAction } from "~/app/lib/desk/picked-list";
import { announcement, emptyPopup, optionsOf, suggestPopup, type SuggestOption } from "~/app/lib/search/suggest-popup";
import { suggestThrottle, type SuggestThrottle } from "~/app/lib/search/suggest-throttle";
import * as css from "./enhancements.css";

/** What a value is called in the list, and what is said beside it. */
export type Described = Map<string, { label: string; hint: string }>;

const WORDS: Record<SuggestedList, { one: string; many: string; order: string }> = {
  authors: { one: "author", many: "authors", order: "Authors chosen, in byline order" },
  topics: { one: "topic", many: "topics", order: "Topics chosen; the first is the primary topic" },
};

/** What the combobox sets on the field, and takes off again when it goes (as the header search's does). */
const FIELD_ATTRIBUTES = ["role", "aria-autocomplete", "aria-expanded", "aria-controls", "aria-activedescendant"] as const;

async function loadSuggestions(list: SuggestedList, term: string, signal: AbortSignal): Promise<ListSuggestion[]> {
  const response = await fetch(`/desk/articles/suggest?list=${list}&term=${encodeURIComponent(term)}`, {
    signal,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`suggest answered ${response.status}`);
  return ((await response.json()) as { options: ListSuggestion[] }).options;
}

interface Props {
  list: SuggestedList;
  /** The form's text field for the list, which this makes a combobox. */
  input: HTMLInputElement;
  /** The place after the field where the suggestions and the chosen list go. */
  slot: HTMLElement;
  /** Where what happens is announced. */
  said: HTMLElement;
  /** The names the page knows already (the authors by slug, the topics as subjects or not). */
  known: Described;
}

/**
 * An ordered multi-select for the article form's authors or topics (ADR 085): the WAI-ARIA APG
 * combobox with list autocomplete on the form's own text field, as the header search has it,
 * offering names from the desk's suggest endpoint; each chosen one joins a numbered list in
 * which it can be moved up or down or removed. The list goes to the server as the plain field
 * sent it ("a, b"), in a hidden field of the same name, with whatever is typed and not chosen.
 */
export function ListCombobox({ list, input, slot, said, known }: Props) {
  const words = WORDS[list];
  const listboxId = `${input.id}-suggestions`;
  const optionId = (index: number) => `${input.id}-option-${index}`;
  const [picked, setPicked] = useState(() => commaList(input.value));
  const [typed, setTyped] = useState("");
  const [spoken, setSpoken] = useState("");
  const [popup, dispatch] = useReducer(suggestPopup, emptyPopup);
  const { open, active } = popup;
  const options = optionsOf(popup);
  const described = useRef(new Map(known));
  const throttle = useRef<SuggestThrottle | null>(null);
  // Set by Escape until the editor types again, so a late answer does not reopen the list.
  const dismissed = useRef(false);
  const hidden = useRef<HTMLInputElement>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  /** Where focus goes once a change has been drawn: a chip's button ("value:which"), or the field. */
  const focusNext = useRef<string | null>(null);
  const current = useRef({ open, active, options, picked });
  current.current = { open, active, options, picked };

  const describe = (value: string) => described.current.get(value) ?? { label: value, hint: "" };

  const change = (action: PickedAction, say: (next: string[]) => string) => {
    const next = pickedList(current.current.picked, action);
    if (next === current.current.picked) return;
    current.current.picked = next;
    setPicked(next);
    setSpoken(say(next));
  };

  const choose = (values: string[]) => {
    const fresh = values.filter((value) => !holds(current.current.picked, value));
    input.value = "";
    setTyped("");
    throttle.current?.update("");
    if (fresh.length === 0) return;
    change({ type: "add", values: fresh }, (next) => {
      const names = fresh.map((value) => describe(value).label).join(", ");
      return `${names} added. ${next.length} ${next.length === 1 ? words.one : words.many}.`;
    });
  };

  // The field hands its text to the list and its name to the hidden field; both come back if
  // this goes (the page's form then works as before). Before any other enhancement reads the form.
  useLayoutEffect(() => {
    const name = input.name;
    input.removeAttribute("name");
    input.value = "";
    return () => {
      input.name = name;
      input.value = fieldValue(current.current.picked, input.value);
    };
  }, [input]);

  useEffect(() => {
    const t = suggestThrottle<ListSuggestion[]>({
      load: (term, signal) => loadSuggestions(list, term, signal),
      onAnswer: (_term, answer) => {
        for (const s of answer) described.current.set(s.value, { label: s.label, hint: s.hint });
        const offered = answer.filter((s) => !holds(current.current.picked, s.value));
        dispatch({
          type: "answer",
          groups: [offered.map((s): SuggestOption => ({ label: s.label, type: s.hint, value: s.value }))],
          show: !dismissed.current && document.activeElement === input,
        });
      },
      onClear: () => dispatch({ type: "clear" }),
      minChars: 1,
    });
    throttle.current = t;
    return () => t.dispose();
  }, [input, list]);

  // The field's combobox state, kept on the element the form rendered.
  useLayoutEffect(() => {
    const attributes: Record<(typeof FIELD_ATTRIBUTES)[number], string | null> = {
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": String(open),
      "aria-controls": listboxId,
      "aria-activedescendant": open && active >= 0 ? optionId(active) : null,
    };
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null) input.removeAttribute(name);
      else input.setAttribute(name, value);
    }
  });
  useEffect(
    () => () => {
      for (const name of FIELD_ATTRIBUTES) input.removeAttribute(name);
    },
    [input],
  );

  useEffect(() => {
    const close = () => dispatch({ type: "close" });
    const onInput = () => {
      dismissed.current = false;
      setSpoken("");
      // A comma ends a name, as in the plain field: what comes before it is chosen.
      const parts = input.value.split(",");
      const rest = parts.pop() ?? "";
      if (parts.some((part) => part.trim() !== "")) {
        choose(commaList(parts.join(",")));
        input.value = rest.trimStart();
      }
      setTyped(input.value);
      dispatch({ type: "unhighlight" });
      throttle.current?.update(input.value);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const { open, active, options } = current.current;
      switch (event.key) {
        case "ArrowDown":
        case "ArrowUp":
          event.preventDefault();
          dismissed.current = false;
          dispatch({ type: "move", step: event.key === "ArrowDown" ? 1 : -1 });
          break;
        case "ArrowLeft":
        case "ArrowRight":
        case "Home":
        case "End":
          dispatch({ type: "unhighlight" });
          break;
        case "Enter": {
          // A highlighted suggestion, else the text typed (a suggestion's name or value as the
          // suggestion), joins the list; in an empty field Enter sends the form.
          const option = open ? options[active] : undefined;
          const text = commaList(input.value).map((t) => options.find((o) => holds([o.value, o.label], t))?.value ?? t);
          if (!option && text.length === 0) break;
          event.preventDefault();
          close();
          choose(option ? [option.value] : text);
          break;
        }
        case "Escape":
          if (open) {
            event.preventDefault();
            dismissed.current = true;
            close();
          } else if (input.value !== "") {
            event.preventDefault();
            input.value = "";
            setTyped("");
            throttle.current?.update("");
          }
          break;
        case "Tab":
          close();
          break;
      }
    };
    input.addEventListener("input", onInput);
    input.addEventListener("keydown", onKeyDown);
    input.addEventListener("blur", close);
    return () => {
      input.removeEventListener("input", onInput);
      input.removeEventListener("keydown", onKeyDown);
      input.removeEventListener("blur", close);
    };
    // `choose` reads only refs and setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [input]);

  // The form hears of every change to what it would send: its checks and autosave listen for input.
  const value = fieldValue(picked, typed);
  const sent = useRef(value);
  useEffect(() => {
    if (sent.current === value) return;
    sent.current = value;
    hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [value]);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === null) return;
    if (target === "field") input.focus();
    else buttons.current.get(target)?.focus();
  }, [picked, input]);

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  const move = (value: string, step: 1 | -1, which: "up" | "down") => {
    focusNext.current = `${value}:${which}`;
    change({ type: "move", value, step }, (next) => {
      const place = next.indexOf(value) + 1;
      const { label } = describe(value);
      return list === "topics" && place === 1
        ? `${label} is now the primary topic.`
        : `${label} moved ${which}: ${place} of ${next.length}.`;
    });
  };

  const remove = (value: string) => {
    const { picked } = current.current;
    const index = picked.indexOf(value);
    const neighbour = picked[index + 1] ?? picked[index - 1];
    focusNext.current = neighbour === undefined ? "field" : `${neighbour}:remove`;
    change(
      { type: "remove", value },
      (next) => `${describe(value).label} removed. ${next.length} ${next.length === 1 ? words.one : words.many}.`,
    );
  };

  const button = (value: string, which: "up" | "down" | "remove", name: string, text: string, onClick: () => void, disabled = false) => (
    <button
      type="button"
      className={css.chipButton}
      aria-label={name}
      aria-disabled={disabled || undefined}
      ref={(element) => {
        const key = `${value}:${which}`;
        if (element) buttons.current.set(key, element);
        else buttons.current.delete(key);
      }}
      onClick={disabled ? undefined : onClick}
    >
      {text}
    </button>
  );

  return (
    <>
      {createPortal(
        <>
          {/* Pressing an option must not take focus from the field, which keeps the list open. */}
          <div
            id={listboxId}
            role="listbox"
            aria-label={`Suggested ${words.many}`}
            className={css.popup}
            tabIndex={-1}
            hidden={!open}
            onMouseDown={(event) => event.preventDefault()}
          >
            {options.map((option, index) => (
              // The keys work in the field, which points at the highlighted option (aria-activedescendant); a click is the pointer's way.
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
              <div
                key={option.value}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={css.option}
                onClick={() => {
                  dispatch({ type: "close" });
                  choose([option.value]);
                }}
              >
                <span className={css.optionLabel}>{option.label}</span>
                <span className={css.hint}>{option.type}</span>
              </div>
            ))}
          </div>
          <input ref={hidden} type="hidden" name={list} value={value} />
          {picked.length > 0 ? (
            <ol className={css.picked} aria-label={words.order}>
              {picked.map((value, index) => {
                const { label, hint } = describe(value);
                return (
                  <li key={value} className={css.chip}>
                    <span className={css.chipText}>
                      <span className={css.optionLabel}>{label}</span>
                      <span className={css.hint}>
                        {list === "topics" && index === 0 ? <span className={css.primary}>Primary topic </span> : null}
                        {hint}
                      </span>
                    </span>
                    <span className={css.chipButtons}>
                      {button(value, "up", `Move ${label} up`, "Up", () => move(value, -1, "up"), index === 0)}
                      {button(value, "down", `Move ${label} down`, "Down", () => move(value, 1, "down"), index === picked.length - 1)}
                      {button(value, "remove", `Remove ${label}`, "Remove", () => remove(value))}
                    </span>
                  </li>
                );
              })}
            </ol>
          ) : null}
        </>,
        slot,
      )}
      {createPortal(<span>{announcement(popup) || spoken}</span>, said)}
    </>
  );
}
