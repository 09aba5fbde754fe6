/**
 * A value as JSON to put inside an inline <script> (JSON-LD, the analytics data layer): every "<"
 * is escaped, so no text in it can close the script element.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}
