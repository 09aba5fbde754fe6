// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTOSAVE_OFF } from "~/shared/article-vocabulary";
import type { ListSuggestion } from "~/shared/list-suggestions";
import { AutosaveStatus } from "~/app/components/desk/articles/enhancements/AutosaveStatus";
import { ListCombobox, type Described } from "~/app/components/desk/articles/enhancements/ListCombobox";
import { AUTOSAVE_IDLE_MS, SEE_BOTH } from "~/app/lib/desk/autosave";

// The desk article form's enhancements (ADR 085) in a browser's DOM: the authors' and topics'
// combobox as the keyboard uses it, and what autosave says in its live region.

/** The parts of the article form the enhancements attach to, as the server renders them. */
function formWith(fields: string): HTMLFormElement {
  document.body.innerHTML = `<form id="article" method="post">${fields}<span id="article-said" aria-live="polite"></span></form>`;
  return byId<HTMLFormElement>("article");
}
/** The enhancements find the form's parts by id, as they do in the page; so does the test. */
// eslint-disable-next-line testing-library/no-node-access
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const focused = (element: HTMLElement) => element.matches(":focus");

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("the authors' and topics' combobox", () => {
  const people: ListSuggestion[] = [
    { value: "grace-hopper", label: "Grace Hopper", hint: "grace-hopper" },
    { value: "grace-jones", label: "Grace Jones", hint: "grace-jones" },
    { value: "ada-lovelace", label: "Ada Lovelace", hint: "ada-lovelace" },
  ];
  let asked: string[];

  beforeEach(() => {
    // jsdom lays nothing out, so has no scrolling to do.
    Element.prototype.scrollIntoView = () => {};
    asked = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        asked.push(url);
        const term = new URL(url, "http://desk.test").searchParams.get("term")!.toLowerCase();
        return json(200, { options: people.filter((p) => p.label.toLowerCase().includes(term)) });
      }),
    );
  });

  function combobox(list: "authors" | "topics", value: string, known: Described = new Map()) {
    const form = formWith(
      `<label for="article-${list}">${list}</label><input id="article-${list}" name="${list}" value="${value}"><div id="article-${list}-picked"></div>`,
    );
    const input = byId<HTMLInputElement>(`article-${list}`);
    render(<ListCombobox list={list} input={input} slot={byId(`article-${list}-picked`)} said={byId("article-said")} known={known} />);
    const sent = () => new FormData(form).getAll(list);
    const type = (text: string) => {
      input.value = text;
      fireEvent.input(input);
    };
    const key = (name: string) => fireEvent.keyDown(input, { key: name });
    const chosen = () =>
      within(screen.getByRole("list"))
        .getAllByRole("listitem")
        .map((item) => item.textContent);
    return { form, input, sent, type, key, chosen };
  }

  it("becomes a combobox on the form's field, which hands the list to a field of the same name", () => {
    const { input, sent, chosen } = combobox(
      "authors",
      "ada-lovelace",
      new Map([["ada-lovelace", { label: "Ada Lovelace", hint: "ada-lovelace" }]]),
    );
    expect(input).toHaveProperty("value", "");
    expect(input.getAttribute("name")).toBeNull();
    expect(input.getAttribute("role")).toBe("combobox");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(sent()).toEqual(["ada-lovelace"]);
    expect(screen.getByRole("list", { name: "Authors chosen, in byline order" })).toBeDefined();
    expect(chosen()).toEqual(["Ada Lovelaceada-lovelaceUpDownRemove"]);
  });

  it("offers what the desk suggests, moves through it with the arrow keys and adds the highlighted one with Enter", async () => {
    const { input, sent, type, key, chosen } = combobox("authors", "ada-lovelace");
    input.focus();
    type("grace");
    const options = await screen.findAllByRole("option");
    expect(asked).toEqual(["/desk/articles/suggest?list=authors&term=grace"]);
    expect(options.map((o) => o.textContent)).toEqual(["Grace Hoppergrace-hopper", "Grace Jonesgrace-jones"]);
    expect(input.getAttribute("aria-expanded")).toBe("true");
    expect(input.getAttribute("aria-controls")).toBe(screen.getByRole("listbox").id);
    expect(byId("article-said").textContent).toBe("2 suggestions available. Use the up and down arrow keys to choose.");

    key("ArrowDown");
    expect(input.getAttribute("aria-activedescendant")).toBe(options[0]!.id);
    expect(options[0]!.getAttribute("aria-selected")).toBe("true");
    key("ArrowDown");
    key("ArrowDown");
    expect(input.getAttribute("aria-activedescendant")).toBe(options[0]!.id);
    key("ArrowUp");
    expect(input.getAttribute("aria-activedescendant")).toBe(options[1]!.id);
    // Enter takes the highlighted suggestion instead of sending the form.
    expect(key("Enter")).toBe(false);
    expect(sent()).toEqual(["ada-lovelace, grace-jones"]);
    expect(chosen().map((text) => text!.replace(/UpDownRemove$/, ""))).toEqual(["ada-lovelace", "Grace Jonesgrace-jones"]);
    expect(input.value).toBe("");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(byId("article-said").textContent).toBe("Grace Jones added. 2 authors.");
  });

  it("offers none of those chosen, closes on Escape, clears on a second Escape and leaves Enter in an empty field to the form", async () => {
    const { input, type, key } = combobox("authors", "grace-hopper");
    input.focus();
    type("grace");
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(["Grace Jonesgrace-jones"]);
    expect(key("Escape")).toBe(false);
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(input.value).toBe("grace");
    key("Escape");
    expect(input.value).toBe("");
    expect(key("Enter")).toBe(true);
  });

  it("takes typed names as the plain field did: a comma or Enter adds them, and unchosen text is still sent", () => {
    const { sent, type, key, chosen } = combobox("authors", "");
    type("ada-lovelace, grace-h");
    expect(chosen()).toHaveLength(1);
    expect(sent()).toEqual(["ada-lovelace, grace-h"]);
    key("Enter");
    expect(chosen()).toHaveLength(2);
    expect(sent()).toEqual(["ada-lovelace, grace-h"]);
  });

  it("moves a chosen one up or down and removes it with its buttons, keeping focus and saying what happened", () => {
    const { input, sent } = combobox("topics", "Strategy, Leadership, Innovation");
    const list = screen.getByRole("list", { name: "Topics chosen; the first is the primary topic" });
    expect(within(list).getAllByRole("listitem")[0]!.textContent).toContain("Primary topic");

    const up = screen.getByRole("button", { name: "Move Leadership up" });
    up.focus();
    fireEvent.click(up);
    expect(sent()).toEqual(["Leadership, Strategy, Innovation"]);
    expect(focused(screen.getByRole("button", { name: "Move Leadership up" }))).toBe(true);
    expect(byId("article-said").textContent).toBe("Leadership is now the primary topic.");
    // At the top, Up is there but does nothing.
    expect(screen.getByRole("button", { name: "Move Leadership up" }).getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Move Leadership up" }));
    expect(sent()).toEqual(["Leadership, Strategy, Innovation"]);

    fireEvent.click(screen.getByRole("button", { name: "Move Strategy down" }));
    expect(sent()).toEqual(["Leadership, Innovation, Strategy"]);
    expect(focused(screen.getByRole("button", { name: "Move Strategy down" }))).toBe(true);
    expect(byId("article-said").textContent).toBe("Strategy moved down: 3 of 3.");

    fireEvent.click(screen.getByRole("button", { name: "Remove Innovation" }));
    expect(sent()).toEqual(["Leadership, Strategy"]);
    expect(focused(screen.getByRole("button", { name: "Remove Strategy" }))).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Remove Strategy" }));
    fireEvent.click(screen.getByRole("button", { name: "Remove Leadership" }));
    expect(sent()).toEqual([""]);
    expect(focused(input)).toBe(true);
    expect(byId("article-said").textContent).toBe("Leadership removed. 0 topics.");
  });

  it("gives the field back as it found it, with the list as text, when it goes", () => {
    const { input, sent } = combobox("authors", "ada-lovelace, grace-hopper");
    cleanup();
    expect(input.getAttribute("name")).toBe("authors");
    expect(input.getAttribute("role")).toBeNull();
    expect(input.value).toBe("ada-lovelace, grace-hopper");
    expect(sent()).toEqual(["ada-lovelace, grace-hopper"]);
  });
});

describe("autosave's status", () => {
  let posts: { url: string; body: URLSearchParams }[];
  let answers: ((response: Response) => void)[];

  beforeEach(() => {
    vi.useFakeTimers();
    posts = [];
    answers = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (url: string, init: RequestInit) =>
          new Promise<Response>((resolve) => {
            posts.push({ url, body: new URLSearchParams(init.body as string) });
            answers.push(resolve);
          }),
      ),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function autosaving(path: string | null = "/desk/articles/7/autosave") {
    const form = formWith(
      `<input name="intent" type="hidden" value="save"><input name="version" type="hidden" value="3">` +
        `<label for="article-title">Title</label><input id="article-title" name="title" value="Before">` +
        `<button type="submit">Save</button><span id="article-autosave" aria-live="polite"></span>`,
    );
    render(<AutosaveStatus form={form} region={byId("article-autosave")} path={path} off={path === null ? AUTOSAVE_OFF : null} />);
    const status = () => byId("article-autosave").textContent;
    const type = (title: string) => {
      byId<HTMLInputElement>("article-title").value = title;
      fireEvent.input(byId("article-title"));
    };
    const pause = () => act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_IDLE_MS));
    const answer = (response: Response) => act(async () => answers.shift()!(response));
    return { form, status, type, pause, answer };
  }

  it("says Saving… and then the time it saved, in UTC, and saves next with the version it was given", async () => {
    const { form, status, type, pause, answer } = autosaving();
    expect(status()).toBe("");
    type("After");
    await pause();
    expect(posts.map((p) => [p.url, p.body.get("title"), p.body.get("version")])).toEqual([["/desk/articles/7/autosave", "After", "3"]]);
    expect(status()).toBe("Saving…");
    await answer(json(200, { version: 4, savedAt: "2026-05-14T14:02:41.000Z" }));
    expect(status()).toBe("Saved at 14:02 UTC");
    expect(new FormData(form).get("version")).toBe("4");
    type("After all");
    await pause();
    expect(posts[1]!.body.get("version")).toBe("4");
  });

  it("keeps naming the version it was given when the page's form draws again over its version field", async () => {
    // The page's form as React draws it: each keystroke draws it again, and React puts the
    // page's version back on the hidden field each time.
    function PageForm() {
      const [, setTyped] = useState("");
      return (
        <form id="article" method="post">
          <input name="version" type="hidden" defaultValue="3" />
          <label htmlFor="article-title">Title</label>
          <input id="article-title" name="title" defaultValue="Before" onInput={(event) => setTyped(event.currentTarget.value)} />
          <button type="submit">Save</button>
          <span id="article-autosave" aria-live="polite"></span>
        </form>
      );
    }
    render(<PageForm />);
    const form = byId<HTMLFormElement>("article");
    render(<AutosaveStatus form={form} region={byId("article-autosave")} path="/desk/articles/7/autosave" off={null} />);
    const type = (title: string) => fireEvent.input(byId("article-title"), { target: { value: title } });
    const submitted: string[] = [];
    form.addEventListener("submit", (event) => {
      submitted.push(String(new FormData(form).get("version")));
      event.preventDefault();
    });

    type("After");
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_IDLE_MS));
    await act(async () => answers.shift()!(json(200, { version: 4, savedAt: "2026-05-14T14:02:41.000Z" })));
    type("After all");
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_IDLE_MS));
    expect(posts.map((p) => p.body.get("version"))).toEqual(["3", "4"]);
    await act(async () => answers.shift()!(json(200, { version: 5, savedAt: "2026-05-14T14:03:12.000Z" })));
    type("After all that");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(submitted).toEqual(["5"]);
  });

  it("says why a save was refused, and tries again on the next change", async () => {
    const { status, type, pause, answer } = autosaving();
    type("");
    await pause();
    await answer(
      json(400, {
        code: "invalid_input",
        message: "Please correct the errors below.",
        fields: { title: ["Enter a title of up to 300 characters."] },
      }),
    );
    expect(status()).toBe("Not saved: Enter a title of up to 300 characters.");
    type("Again");
    await pause();
    expect(posts).toHaveLength(2);
  });

  it("stops at a conflict with the desk's message and a link to reload the article", async () => {
    const { status, type, pause, answer } = autosaving();
    type("Mine");
    await pause();
    const message = "This article was changed by Ben Desk at 2026-05-14 14:01 UTC since you opened it.";
    await answer(json(409, { code: "conflict", message, by: "Ben Desk", at: "2026-05-14T14:01:00.000Z", current: { version: 4 } }));
    expect(status()).toBe(`Not saved: ${message} ${SEE_BOTH} Autosave has stopped. Reload the article`);
    expect(within(byId("article-autosave")).getByRole("link", { name: "Reload the article" }).getAttribute("href")).toBe(
      window.location.pathname,
    );
    type("Mine again");
    await pause();
    expect(posts).toHaveLength(1);
  });

  it("makes the Save button wait for a save on its way, then send the version it made", async () => {
    const { form, type, pause, answer } = autosaving();
    const submitted: string[] = [];
    form.addEventListener("submit", (event) => {
      if (!event.defaultPrevented) submitted.push(String(new FormData(form).get("version")));
      event.preventDefault();
    });
    type("Mine");
    await pause();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(submitted).toEqual([]);
    await answer(json(200, { version: 4, savedAt: "2026-05-14T14:02:41.000Z" }));
    expect(submitted).toEqual(["4"]);
  });

  it("saves what is unsaved when the editor leaves, the form's own field checks being no Save", async () => {
    const { form, type } = autosaving();
    // conform checks a field by submitting the form with a named button of its own.
    form.addEventListener("submit", (event) => event.preventDefault());
    const check = document.createElement("button");
    check.name = "__intent__";
    check.hidden = true;
    form.append(check);
    type("Typed before leaving");
    form.requestSubmit(check);
    cleanup();
    expect(posts.map((p) => p.body.get("title"))).toEqual(["Typed before leaving"]);
  });

  it("says autosave is off for an article readers see or will see, and saves nothing", async () => {
    const { status, type, pause } = autosaving(null);
    expect(status()).toBe(AUTOSAVE_OFF);
    type("Mine");
    await pause();
    expect(posts).toEqual([]);
  });
});
