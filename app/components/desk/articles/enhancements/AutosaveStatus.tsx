import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { autosaveAnswer, autosaver, type AutosaveAnswer, type AutosaveState } from "~/app/lib/desk/autosave";

/** A keepalive request (one that outlives the page) may carry at most 64 KB; a longer form is posted as usual. */
const KEEPALIVE_BYTES = 60_000;

async function post(path: string, form: URLSearchParams, keepalive: boolean): Promise<AutosaveAnswer> {
  const body = form.toString();
  const response = await fetch(path, {
    method: "POST",
    body,
    keepalive: keepalive && body.length < KEEPALIVE_BYTES,
    redirect: "manual",
    headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
  });
  const json: unknown = (response.headers.get("Content-Type") ?? "").includes("application/json") ? await response.json() : null;
  return autosaveAnswer(response, json);
}

/** The form as its Save button would post it. */
const formBody = (form: HTMLFormElement) =>
  new URLSearchParams([...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === "string"));

/** What the status line says. */
export function statusText(state: AutosaveState | null): string {
  if (state === null) return "";
  switch (state.kind) {
    case "saving":
      return "Saving…";
    case "saved":
      return `Saved at ${state.at.slice(11, 16)} UTC`;
    case "failed":
    case "stopped":
      return `Not saved: ${state.message}`;
  }
}

export interface AutosaveProps {
  form: HTMLFormElement;
  /** The live region beside the Save button, in the page from the start. */
  region: HTMLElement;
  /** The autosave endpoint; null while autosave is off, for the reason `off` gives. */
  path: string | null;
  off?: string | null;
}

/**
 * Autosave for the article form (ADR 085): after a pause in the editor's changes, when the page
 * is hidden or left, and before the Save button's own post if one is on its way (so that post
 * names the newest version). Its status is said in the live region: "Saving…", "Saved at 14:02
 * UTC", "Not saved: …". A conflict stops it, with the desk's message and a link to reload.
 */
export function AutosaveStatus({ form, region, path, off }: AutosaveProps) {
  const [state, setState] = useState<AutosaveState | null>(null);

  useEffect(() => {
    if (path === null) return;
    // The version field is the page's: React puts the page's version back on it whenever the
    // form draws again, so the version autosave was given is set on it again before every read.
    let given: string | null = null;
    const versionNamed = () => {
      const field = form.elements.namedItem("version");
      if (given !== null && field instanceof HTMLInputElement) field.value = given;
    };
    const saver = autosaver({
      read: () => {
        versionNamed();
        return formBody(form);
      },
      send: (body, keepalive) => post(path, body, keepalive),
      onState: setState,
      onVersion: (v) => {
        given = String(v);
        versionNamed();
      },
    });
    let submitted = false;
    const changed = () => {
      submitted = false;
      saver.changed();
    };
    const hidden = () => {
      if (document.visibilityState === "hidden") saver.flush(true);
    };
    const submit = (event: SubmitEvent) => {
      // The form's checks (conform) submit it with a named button of their own to validate a
      // field; the Save button has no name.
      if (event.submitter?.getAttribute("name")) return;
      submitted = true;
      versionNamed();
      saver.hold();
      if (!saver.busy()) return;
      // The Save button's post waits for the autosave on its way, then names the version it made.
      event.preventDefault();
      event.stopPropagation();
      const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : undefined;
      void saver.settled().then(() => form.requestSubmit(submitter));
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", submit);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      form.removeEventListener("input", changed);
      form.removeEventListener("change", changed);
      form.removeEventListener("submit", submit);
      document.removeEventListener("visibilitychange", hidden);
      // Leaving for another desk page saves what is unsaved; a Save on its way has it already.
      if (!submitted) saver.flush(false);
      saver.dispose();
    };
  }, [form, path]);

  const text = path === null ? (off ?? "") : statusText(state);
  return createPortal(
    state?.kind === "stopped" ? (
      <>
        {text} Autosave has stopped. <a href={window.location.pathname}>Reload the article</a>
      </>
    ) : (
      text
    ),
    region,
  );
}
