import { Form, Link, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useId, useReducer, useRef, type KeyboardEvent } from "react";
import type { Suggestions } from "../../server/search";
import { MAX_QUERY_LENGTH } from "../../shared/search-query";
import { announcement, emptyPopup, optionsOf, suggestPopup, type SuggestOption } from "../lib/suggest-popup";
import { suggestThrottle, type SuggestThrottle } from "../lib/suggest-throttle";
import { SITE_NAME } from "../lib/site";
import { useHydrated } from "./useHydrated";
import * as css from "./SearchBox.css";

async function loadSuggestions(term: string, signal: AbortSignal): Promise<Suggestions> {
  const response = await fetch(`/service/search/auto-suggest?term=${encodeURIComponent(term)}`, {
    signal,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`auto-suggest answered ${response.status}`);
  return (await response.json()) as Suggestions;
}

/**
 * The header's search field: a plain GET form to /search that works without JS. With JS the
 * field becomes a combobox (WAI-ARIA APG, list autocomplete) offering topics and titles from
 * the auto-suggest service; each option is a link, followed on click or Enter.
 */
export function SearchBox() {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  const inputId = `${id}q`;
  const listboxId = `${id}suggestions`;
  const optionId = (index: number) => `${id}option-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const throttle = useRef<SuggestThrottle | null>(null);
  // Set by Escape until the reader types again, so a late answer does not reopen the list.
  const dismissed = useRef(false);
  const [popup, dispatch] = useReducer(suggestPopup, emptyPopup);
  const { open, active } = popup;
  const options = optionsOf(popup);

  useEffect(() => {
    const t = suggestThrottle<Suggestions>({
      load: loadSuggestions,
      onAnswer: (_term, { subjects, records }) =>
        dispatch({
          type: "answer",
          topics: subjects.map((s) => ({ label: s.name, type: "Topic", link: s.link })),
          titles: records.map((r) => ({ label: r.title, type: r.contentType, link: r.link })),
          show: !dismissed.current && document.activeElement === input.current,
        }),
      onClear: () => dispatch({ type: "clear" }),
    });
    throttle.current = t;
    return () => t.dispose();
  }, []);

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
  }, [location.key]);

  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}option-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);

  const close = () => dispatch({ type: "close" });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
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
          navigate(option.link);
        }
        break;
      }
      case "Escape":
        // A search field would clear itself on the first Escape; APG closes the list first.
        if (open) {
          event.preventDefault();
          dismissed.current = true;
          close();
        } else if (event.currentTarget.value !== "") {
          event.preventDefault();
          event.currentTarget.value = "";
          throttle.current?.update("");
        }
        break;
      case "Tab":
        close();
        break;
    }
  };

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
              to={option.link}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              tabIndex={-1}
              className={css.option}
              onClick={close}
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
    <div className={css.slot}>
      <Form method="get" action="/search" role="search" aria-label="Site" className={css.form}>
        <label htmlFor={inputId} className="visually-hidden">
          Search {SITE_NAME}
        </label>
        <div className={css.field}>
          <MagnifierIcon />
          <input
            ref={input}
            id={inputId}
            type="search"
            name="q"
            placeholder="Search"
            maxLength={MAX_QUERY_LENGTH}
            autoComplete="off"
            className={css.input}
            {...(hydrated
              ? {
                  role: "combobox",
                  "aria-autocomplete": "list",
                  "aria-expanded": open,
                  "aria-controls": listboxId,
                  "aria-activedescendant": open && active >= 0 ? optionId(active) : undefined,
                }
              : {})}
            onChange={(event) => {
              dismissed.current = false;
              dispatch({ type: "unhighlight" });
              throttle.current?.update(event.currentTarget.value);
            }}
            onKeyDown={onKeyDown}
            onBlur={close}
          />
          <button type="submit" className={css.submit}>
            <ArrowIcon />
            <span className="visually-hidden">Search</span>
          </button>
        </div>
        {hydrated ? (
          // Pressing an option must not take focus from the field, which keeps the list open.
          <div
            id={listboxId}
            role="listbox"
            aria-label="Search suggestions"
            className={css.popup}
            tabIndex={-1}
            hidden={!open}
            onMouseDown={(event) => event.preventDefault()}
          >
            {renderGroup("Topics", popup.topics, 0)}
            {renderGroup("Titles", popup.titles, popup.topics.length)}
          </div>
        ) : null}
      </Form>
      <div aria-live="polite" className="visually-hidden">
        {announcement(popup)}
      </div>
    </div>
  );
}

function MagnifierIcon() {
  return (
    <svg className={css.icon} viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12.5 12.5 17 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function ArrowIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M3 10h13M11 5l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
