import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useLayoutEffect, useReducer, useRef, type RefObject } from "react";
import { createPortal } from "react-dom";
import type { Suggestions } from "~/server/search";
import { announcement, emptyPopup, optionsOf, suggestPopup, type SuggestOption } from "~/app/lib/search/suggest-popup";
import { suggestThrottle, type SuggestThrottle } from "~/app/lib/search/suggest-throttle";
import * as css from "./SearchBox.css";

async function loadSuggestions(term: string, signal: AbortSignal): Promise<Suggestions> {
  const response = await fetch(`/service/search/auto-suggest?term=${encodeURIComponent(term)}`, {
    signal,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`auto-suggest answered ${response.status}`);
  return (await response.json()) as Suggestions;
}

/** What the combobox sets on the field, and takes off again when it goes. */
const FIELD_ATTRIBUTES = ["role", "aria-autocomplete", "aria-expanded", "aria-controls", "aria-activedescendant"] as const;

interface Props {
  /** The header's search field, which this makes a combobox. */
  input: RefObject<HTMLInputElement>;
  /** The search box's useId, which the list's and options' ids start with. */
  idPrefix: string;
  /** Where the number of suggestions is announced. */
  liveRegion: HTMLElement;
}

/**
 * The header search's combobox (WAI-ARIA APG, list autocomplete), loaded once the page has
 * hydrated: the list of topics and titles from the auto-suggest service, the keys that move
 * through it, and the combobox's ARIA on the field the search box rendered.
 */
export default function SearchSuggestions({ input, idPrefix: id, liveRegion }: Props) {
  const navigate = useNavigate();
  const location = useLocation();
  const listboxId = `${id}suggestions`;
  const optionId = (index: number) => `${id}option-${index}`;
  const throttle = useRef<SuggestThrottle | null>(null);
  // Set by Escape until the reader types again, so a late answer does not reopen the list.
  const dismissed = useRef(false);
  const [popup, dispatch] = useReducer(suggestPopup, emptyPopup);
  const { open, active } = popup;
  const options = optionsOf(popup);
  const current = useRef({ open, active, options });
  current.current = { open, active, options };

  useEffect(() => {
    const t = suggestThrottle<Suggestions>({
      load: loadSuggestions,
      onAnswer: (_term, { subjects, records }) =>
        dispatch({
          type: "answer",
          groups: [
            subjects.map((s) => ({ label: s.name, type: "Topic", value: s.link })),
            records.map((r) => ({ label: r.title, type: r.contentType, value: r.link })),
          ],
          show: !dismissed.current && document.activeElement === input.current,
        }),
      onClear: () => dispatch({ type: "clear" }),
    });
    throttle.current = t;
    // Text typed before this loaded is suggested for at once.
    if (input.current?.value) t.update(input.current.value);
    return () => t.dispose();
  }, [input]);

  // The field's combobox state, kept on the element the search box rendered.
  useLayoutEffect(() => {
    const field = input.current;
    if (!field) return;
    const attributes: Record<(typeof FIELD_ATTRIBUTES)[number], string | null> = {
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": String(open),
      "aria-controls": listboxId,
      "aria-activedescendant": open && active >= 0 ? optionId(active) : null,
    };
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null) field.removeAttribute(name);
      else field.setAttribute(name, value);
    }
  });
  useEffect(() => {
    const field = input.current;
    return () => {
      for (const name of FIELD_ATTRIBUTES) field?.removeAttribute(name);
    };
  }, [input]);

  useEffect(() => {
    const field = input.current;
    if (!field) return;
    const close = () => dispatch({ type: "close" });
    const onInput = () => {
      dismissed.current = false;
      dispatch({ type: "unhighlight" });
      throttle.current?.update(field.value);
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
          // The caret moves in the text again, so the highlight leaves the list.
          dispatch({ type: "unhighlight" });
          break;
        case "Enter": {
          const option = open ? options[active] : undefined;
          if (option) {
            event.preventDefault();
            close();
            navigate(option.value);
          }
          break;
        }
        case "Escape":
          // A search field would clear itself on the first Escape; APG closes the list first.
          if (open) {
            event.preventDefault();
            dismissed.current = true;
            close();
          } else if (field.value !== "") {
            event.preventDefault();
            field.value = "";
            throttle.current?.update("");
          }
          break;
        case "Tab":
          close();
          break;
      }
    };
    field.addEventListener("input", onInput);
    field.addEventListener("keydown", onKeyDown);
    field.addEventListener("blur", close);
    return () => {
      field.removeEventListener("input", onInput);
      field.removeEventListener("keydown", onKeyDown);
      field.removeEventListener("blur", close);
    };
  }, [input, navigate]);

  // A new page (a followed suggestion, a submitted search) starts with an empty field, and with
  // focus no longer in it, as after a page load (on narrow screens the open field would hide the
  // logo). The first render keeps whatever was typed before the page hydrated.
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (input.current) {
      input.current.value = "";
      input.current.blur();
    }
    throttle.current?.update("");
    dismissed.current = false;
  }, [location.key, input]);

  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}option-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);

  const renderGroup = (label: string, group: SuggestOption[], offset: number) => {
    if (group.length === 0) return null;
    const labelId = `${id}${label}`;
    return (
      <div role="group" aria-labelledby={labelId} className={css.group}>
        <div role="presentation" id={labelId} className={css.groupLabel}>
          {label}
        </div>
        {group.map((option, i) => {
          const index = offset + i;
          return (
            <Link
              key={index}
              to={option.value}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              tabIndex={-1}
              className={css.option}
              onClick={() => dispatch({ type: "close" })}
            >
              <span className={css.optionLabel}>{option.label}</span>
              <span className={css.optionType}>{option.type}</span>
            </Link>
          );
        })}
      </div>
    );
  };

  return (
    <>
      {/* Pressing an option must not take focus from the field, which keeps the list open. */}
      <div
        id={listboxId}
        role="listbox"
        aria-label="Search suggestions"
        className={css.popup}
        tabIndex={-1}
        hidden={!open}
        onMouseDown={(event) => event.preventDefault()}
      >
        {renderGroup("Topics", popup.groups[0] ?? [], 0)}
        {renderGroup("Titles", popup.groups[1] ?? [], popup.groups[0]?.length ?? 0)}
      </div>
      {createPortal(announcement(popup), liveRegion)}
    </>
  );
}
