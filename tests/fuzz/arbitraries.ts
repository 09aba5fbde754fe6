import fc from "fast-check";

// What a hostile client can put in a form: text of every kind, bytes that are not UTF-8, values
// of the wrong type, huge values, repeated and missing fields, and the headers around them.

/** A piece of a field's value: text (encoded as UTF-8), or raw bytes written as %XX escapes. */
export type Piece = { text: string } | { raw: string };
export type FieldValue = Piece[];

/** Percent-encodings that do not decode to valid UTF-8 text, or are not escapes at all. */
export const RAW_BYTES = [
  "%00",
  "%C0%AF",
  "%C0%80",
  "%FF",
  "%FE%FF",
  "%ED%A0%80",
  "%ED%B0%80",
  "%F4%90%80%80",
  "%E2%82",
  "%",
  "%zz",
  "%%41",
  "+",
];

const HUGE = "x".repeat(100_000);

const HOSTILE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDC00y",
  "\uDBFF\uDBFF",
  "😀".repeat(40),
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "\u202Eevil.example\u202C",
  "مرحبا بالعالم",
  "e\u0301".repeat(300),
  "Z̸̡̢̛̛̛̼̹̗͔͕̗̗̹͎͖̞̼͓̫̺̗̞̩̪̲̫͚̫̯̟̳̤̞̞͙̳͈̯̥̹̹̝͓̠̤̮̮̭̙̹̭̟̤̦̭͍̤̼̬̦̝̪̭̞̣̦̣̭̻͎͉̬̞̬̤̪̞̪̳̝͔̰̞̠̤̱̹̯̻͓̫̮̙̰̗̝͖͓̬͕̖̬͕̖̩̩̩͉̙̤̬̯͙̦̗̟̩̗̙̳̫̞̗̤̥̪̤̘̭̳̝̣̻͖͔̦͕̠̦̯̯͕̝͓̤̗͖̲͇͔̪̱̞̙̭͔̦͍̭",
  "\uFEFF\u200B\u2028\u2029",
  "\r\n\t",
  HUGE,
  "x".repeat(70_000),
  "a".repeat(2049),
  "-1",
  "0",
  "1.5",
  "1e309",
  "NaN",
  "Infinity",
  "0x1F",
  "2147483648",
  "99999999999999999999",
  "9007199254740993",
  " 42 ",
  "[]",
  "{}",
  '{"$gt":""}',
  "null",
  "undefined",
  "true",
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  "'; DROP TABLE app_user; --",
  "../../../etc/passwd",
  "//evil.example",
  "/\\evil.example",
  "/./%5Cevil.example",
  "https://evil.example/",
  "javascript:alert(1)",
  "%00",
  "%252e%252e",
  "ord_AAAAAAAAAAAAAAAAAAAAAA",
  "sbx_AAAAAAAAAAAAAAAAAAAAAA",
  "00000000-0000-0000-0000-000000000000",
  // Not the sandbox's paying card: its checkout page is a capability URL (as Stripe's is), so
  // paying reader A's order with it from anywhere is allowed, and would change A's data.
  "4000 0000 0000 0002",
  "a@b",
  "x@example.org",
  `${"a".repeat(250)}@example.org`,
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Text of any kind, including what PostgreSQL cannot store. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.oneof(fc.constant("\u0000"), loneSurrogate, fc.constantFrom("a", "é", "😀", "%", "&", "=")),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

const text = (arb: fc.Arbitrary<string>): fc.Arbitrary<FieldValue> => arb.map((t) => [{ text: t }]);

/** A value mixing text with raw, undecodable bytes. */
const broken: fc.Arbitrary<FieldValue> = fc.array(
  fc.oneof(
    fc.constantFrom(...RAW_BYTES).map((raw) => ({ raw })),
    hostileText.map((t) => ({ text: t.slice(0, 40) })),
  ),
  { minLength: 1, maxLength: 4 },
);

/** A field's value: mostly what the form means (so the action gets past its first checks), else hostile. */
export function fieldValue(plausible: fc.Arbitrary<string>): fc.Arbitrary<FieldValue> {
  return fc.oneof({ weight: 6, arbitrary: text(plausible) }, { weight: 2, arbitrary: text(hostileText) }, { weight: 1, arbitrary: broken });
}

/** A field left out, sent once, or repeated (as checkboxes do, or as a tamperer might). */
export function fieldOccurrences(plausible: fc.Arbitrary<string>): fc.Arbitrary<FieldValue[]> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<FieldValue[]>([]) },
    { weight: 6, arbitrary: fieldValue(plausible).map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(fieldValue(plausible), { minLength: 2, maxLength: 4 }) },
  );
}

export const ENCODINGS = ["urlencoded", "multipart", "json", "text", "none", "bad-multipart"] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 12, arbitrary: fc.constant("urlencoded" as const) },
  { weight: 3, arbitrary: fc.constant("multipart" as const) },
  { weight: 1, arbitrary: fc.constantFrom(...ENCODINGS.filter((e) => e !== "urlencoded" && e !== "multipart")) },
);

/** Where the post claims to come from: this site (mostly), nowhere, or another site. */
export type OriginKind = "same" | "missing" | "foreign" | "null" | "cross-site-fetch";
export const origin: fc.Arbitrary<OriginKind> = fc.oneof(
  { weight: 8, arbitrary: fc.constant("same" as const) },
  { weight: 1, arbitrary: fc.constantFrom("missing" as const, "foreign" as const, "null" as const, "cross-site-fetch" as const) },
);

/** Text as a URL can carry it (percent-encoded UTF-8; a lone surrogate becomes U+FFFD). */
export const inUrl = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));

/** Stands for an id: one of the given (another reader's or the poster's own), or a forged one. */
export const oneOf = (...values: string[]) => fc.constantFrom(...values);
