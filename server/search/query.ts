// The reader's search text, parsed once and written out for each database's full-text engine,
// so both engines are asked exactly the same question (ADR 030). The syntax is the one readers
// know from web search: words, "quoted phrases", OR between alternatives and -word to exclude.
// Anything else (stray quotes, brackets, operators of either engine) is read as spaces.

export type Clause =
  { kind: "word"; word: string; prefix: boolean } | { kind: "phrase"; words: string[] } | { kind: "or"; options: Clause[] };

export interface ParsedQuery {
  /** Clauses that must all match (an "or" clause matches when one of its options does). */
  clauses: Clause[];
  /** Clauses that must not match. */
  excluded: Clause[];
  /** Every word the reader asked for, for highlighting; prefix words are marked. */
  terms: { word: string; prefix: boolean }[];
}

const MAX_CLAUSES = 12;
/** Shorter last words are not expanded as prefixes: "a" would match most of the index. */
const MIN_PREFIX = 3;

// Words both engines would ignore (PostgreSQL's English stop list; FTS5 keeps them,
// so they are dropped here for both). Inside phrases they are kept, as in "state of the art".
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can did do does doing down during each few for from further had has have having he her here hers herself him himself his how " +
    "i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out " +
    "over own same she should so some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up very was we were s t don what when where which while who whom why will with you your yours yourself yourselves"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;

function wordsOf(text: string): string[] {
  return (text.normalize("NFKC").toLowerCase().match(WORD) ?? []).map((w) => w.slice(0, 40));
}

type Token = { kind: "text"; text: string; negated: boolean; quoted: boolean } | { kind: "or" };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /(-?)"([^"]*)"?|(\S+)/g;
  for (const match of input.matchAll(pattern)) {
    if (match[2] !== undefined) {
      tokens.push({ kind: "text", text: match[2], negated: match[1] === "-", quoted: true });
    } else {
      const raw = match[3]!;
      if (raw === "OR" || raw === "|") tokens.push({ kind: "or" });
      else if (raw.startsWith("-") && raw.length > 1) tokens.push({ kind: "text", text: raw.slice(1), negated: true, quoted: false });
      else tokens.push({ kind: "text", text: raw, negated: false, quoted: false });
    }
  }
  return tokens;
}

/** A token's clause: one word, or a phrase when quoted or when it joins words ("e-commerce"). */
function clauseOf(token: Extract<Token, { kind: "text" }>): Clause | null {
  const words = wordsOf(token.text);
  if (words.length === 0) return null;
  if (words.length > 1) return { kind: "phrase", words: words.slice(0, 8) };
  const word = words[0]!;
  if (!token.quoted && STOP_WORDS.has(word)) return null;
  return { kind: "word", word, prefix: false };
}

export function parseQuery(input: string): ParsedQuery {
  const clauses: Clause[] = [];
  const excluded: Clause[] = [];
  let joinNext = false;
  const tokens = tokenize(input);
  const endsInWord = /[\p{L}\p{N}]$/u.test(input);
  tokens.forEach((token, index) => {
    if (token.kind === "or") {
      joinNext = clauses.length > 0;
      return;
    }
    const clause = clauseOf(token);
    if (!clause) return;
    if (token.negated) {
      excluded.push(clause);
      return;
    }
    // The last word the reader typed matches as a prefix, as it may be unfinished.
    if (index === tokens.length - 1 && endsInWord && !token.quoted && clause.kind === "word" && clause.word.length >= MIN_PREFIX) {
      clause.prefix = true;
    }
    const previous = clauses[clauses.length - 1];
    if (joinNext && previous) {
      clauses[clauses.length - 1] = { kind: "or", options: [...(previous.kind === "or" ? previous.options : [previous]), clause] };
    } else {
      clauses.push(clause);
    }
    joinNext = false;
  });
  const kept = clauses.slice(0, MAX_CLAUSES);
  return { clauses: kept, excluded: excluded.slice(0, MAX_CLAUSES), terms: kept.flatMap(termsOf) };
}

function termsOf(clause: Clause): { word: string; prefix: boolean }[] {
  switch (clause.kind) {
    case "word":
      return [{ word: clause.word, prefix: clause.prefix }];
    case "phrase":
      return clause.words.filter((w) => !STOP_WORDS.has(w)).map((word) => ({ word, prefix: false }));
    case "or":
      return clause.options.flatMap(termsOf);
  }
}

/**
 * The query with its last word taken whole. Search asks this first: a prefix costs the engines a
 * merge of every word it starts, so it is only worth asking when the whole word finds little.
 */
export function wholeWords(q: ParsedQuery): ParsedQuery {
  const whole = (c: Clause): Clause =>
    c.kind === "word" ? { ...c, prefix: false } : c.kind === "or" ? { ...c, options: c.options.map(whole) } : c;
  return { ...q, clauses: q.clauses.map(whole) };
}

export const hasPrefix = (q: ParsedQuery) => q.terms.some((t) => t.prefix);

/** Whether the query can match anything: at least one clause the reader wants. */
export const isSearchable = (q: ParsedQuery) => q.clauses.length > 0;

// --- SQLite FTS5 -------------------------------------------------------------------------------
// Every word is written as a quoted string, so no input can be read as FTS5 syntax.

function fts5Clause(clause: Clause): string {
  switch (clause.kind) {
    case "word":
      // FTS5 does not stem a prefix ("innovat"* misses the stored stem "innov"), so the word is
      // also asked for whole, which is stemmed: between them they match what PostgreSQL's prefix does.
      return clause.prefix ? `("${clause.word}"* OR "${clause.word}")` : `"${clause.word}"`;
    case "phrase":
      return `"${clause.words.join(" ")}"`;
    case "or":
      return `(${clause.options.map(fts5Clause).join(" OR ")})`;
  }
}

/** The FTS5 MATCH expression. */
export function toFts5(q: ParsedQuery): string {
  const wanted = q.clauses.map(fts5Clause).join(" AND ");
  return q.excluded.length > 0 ? `(${wanted}) NOT (${q.excluded.map(fts5Clause).join(" OR ")})` : wanted;
}

// --- PostgreSQL tsquery --------------------------------------------------------------------------
// Words hold only letters and digits, so the text given to to_tsquery has no syntax but ours.

function tsClause(clause: Clause, weight: string): string {
  switch (clause.kind) {
    case "word":
      return `${clause.word}${clause.prefix || weight ? ":" : ""}${clause.prefix ? "*" : ""}${weight}`;
    case "phrase":
      return `(${clause.words.map((w) => `${w}${weight ? `:${weight}` : ""}`).join(" <-> ")})`;
    case "or":
      return `(${clause.options.map((c) => tsClause(c, weight)).join(" | ")})`;
  }
}

/**
 * PostgreSQL's body words also hold each pair of neighbouring words as one lexeme (migration 021):
 * a two-word phrase among the clauses that must match is asked for as its pair, and the rest of
 * the query as before. A phrase inside an OR or after a minus stays a phrase.
 */
export function phrasePairs(q: ParsedQuery): { rest: ParsedQuery; pairs: [string, string][] } {
  const pairs: [string, string][] = [];
  const clauses = q.clauses.filter((clause) => {
    if (clause.kind !== "phrase" || clause.words.length !== 2) return true;
    pairs.push([clause.words[0]!, clause.words[1]!]);
    return false;
  });
  return { rest: { ...q, clauses }, pairs };
}

/** The text for PostgreSQL's to_tsquery; with a weight, only words of that weight match (A: the title). */
export function toTsquery(q: ParsedQuery, weight: "" | "A" = ""): string {
  return [...q.clauses.map((c) => tsClause(c, weight)), ...q.excluded.map((c) => `!${tsClause(c, "")}`)].join(" & ");
}
