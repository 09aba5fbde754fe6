// A signed-in reader's own values on a page (ADR 096): their name, their analytics data layer and
// where their meter stands.
// A document's loaders give these as marks, so the page renders, and is kept by the page cache,
// the same for every reader of a kind; the marks are replaced by this reader's values as the
// document leaves. Everything else the loaders return stays in the page cache's key.
import crypto from "node:crypto";
import { MARK_START } from "./reader-marks";

/** Made once per process: no stored text can contain a mark, since no one can know its token. */
const TOKEN = crypto.randomBytes(9).toString("base64url");
const MARK = new RegExp(`${MARK_START}${TOKEN}([a-zA-Z]+)\uE001`, "g");

/** The names of the values a document may mark. */
export type ReaderPart = "name" | "firstName" | "analytics" | "counter" | "meter";

const mark = (part: string) => `${MARK_START}${TOKEN}${part}\uE001`;

export class ReaderParts {
  private readonly values = new Map<string, string>();

  /** `active`: the request is for a whole document that the page cache may keep. */
  constructor(private readonly active: boolean) {}

  /** The reader's value for the document's render: a mark when the document is filled in as it leaves. */
  put(part: ReaderPart, value: string): string {
    if (!this.active) return value;
    this.values.set(part, value);
    return mark(part);
  }

  /** The value given for `part`, if the document marks it. */
  value(part: ReaderPart): string | undefined {
    return this.values.get(part);
  }

  /** `text` with this reader's values in place of any marks in it, as they are. */
  resolve(text: string): string {
    return text.replace(MARK, (_, name: string) => {
      const value = this.values.get(name);
      if (value === undefined) throw new Error(`The text has a mark for "${name}" that this request did not give`);
      return value;
    });
  }

  get marked(): boolean {
    return this.values.size > 0;
  }

  /**
   * The document with this reader's values in place of the marks, each written as its place
   * needs: HTML-escaped in the markup, as a string inside Remix's hydration data, and as is in
   * the analytics script (whose text is given, ready for a script: `analyticsScript`). The
   * nonce, marked by the page cache, is the response's own.
   */
  fill(document: string, { analyticsScript, nonce }: { analyticsScript?: string; nonce?: string }): string {
    const values = new Map(this.values);
    if (nonce) values.set("nonce", nonce);
    const valueOf = (part: string) => {
      const value = values.get(part);
      if (value === undefined) throw new Error(`The document has a mark for "${part}" that this request did not give`);
      return value;
    };
    return document.replace(SCRIPT_OR_MARK, (found: string, scriptTag: string | undefined, part: string | undefined) => {
      if (scriptTag === undefined) return htmlEscape(valueOf(part!));
      const inScript = found.includes("streamController.enqueue(")
        ? (name: string) => hydrationString(valueOf(name))
        : scriptTag.includes("data-analytics") && analyticsScript !== undefined
          ? (name: string) => (name === "analytics" ? analyticsScript : scriptString(valueOf(name)))
          : (name: string) => scriptString(valueOf(name));
      return found.replace(MARK, (_, name: string) => (name === "nonce" ? valueOf(name) : inScript(name)));
    });
  }
}

/** A mark as the page cache keeps a document's nonce attributes. */
export const NONCE_MARK = mark("nonce");

const SCRIPT_OR_MARK = new RegExp(`(<script\\b[^>]*>)[\\s\\S]*?</script>|${MARK.source}`, "g");

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** As React escapes text and attribute values. */
function htmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const SCRIPT_ESCAPES: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/** As Remix escapes the hydration data it writes into a script (@remix-run/react's escapeHtml). */
function scriptSafe(text: string): string {
  return text.replace(/[&><\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c]!);
}

/** The inside of a JSON string literal, safe in a script. */
function scriptString(value: string): string {
  return scriptSafe(JSON.stringify(value).slice(1, -1));
}

/**
 * A string as it is inside Remix's hydration data: turbo-stream writes it as a JSON string, and
 * Remix writes that text as a JSON string inside `streamController.enqueue(…)`.
 */
function hydrationString(value: string): string {
  return scriptSafe(JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1));
}
