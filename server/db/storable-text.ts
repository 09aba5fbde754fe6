// eslint-disable-next-line no-control-regex -- NUL is what it removes
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text both databases can store: PostgreSQL refuses a NUL byte in text ("invalid byte sequence
 * for encoding UTF8: 0x00") and cannot encode a lone UTF-16 surrogate.
 */
export function isStorableText(text: string): boolean {
  NUL.lastIndex = 0;
  LONE_SURROGATE.lastIndex = 0;
  return !NUL.test(text) && !LONE_SURROGATE.test(text);
}

/** The same text with NUL bytes dropped and lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return isStorableText(text) ? text : text.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * A query's bound values, each text made storable (arrays of text too, as PostgreSQL binds
 * them). The last line of defence under every query on both databases, applied where the
 * values are handed to the driver: text a form guard or route did not refuse (a query string, a
 * path segment, a JSON body) reads as "not found" instead of failing on PostgreSQL with a 500.
 * Forms are refused with a 400 before they get here (readForm).
 */
export function storableParameters(values: readonly unknown[]): unknown[] {
  return values.map(storableValue);
}

function storableValue(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  return value;
}
