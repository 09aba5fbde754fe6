// The passage a result shows, with the reader's words marked. It is cut only from the texts
// it is given: the caller decides which text the reader may see (server/search/index.ts).

export type SnippetPart = { text: string; mark: boolean };
export type Term = { word: string; prefix: boolean };

const SUFFIXES = ["ational", "ations", "ation", "ings", "ing", "edly", "ies", "ied", "ers", "er", "ed", "es", "ly", "s", "e", "y"];

/** A rough English stem, enough to see that "pricing" is the reader's "price" (the engines stem properly). */
function roughStem(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

const bare = (token: string) =>
  token
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");

function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

export function matchesTerm(token: string, term: Term): boolean {
  // Most words share nothing with the term: a cheap look before normalising.
  if (!token.toLowerCase().includes(term.word.slice(0, 3))) return false;
  const word = bare(token);
  if (!word) return false;
  if (term.prefix && (word.startsWith(term.word) || roughStem(word).startsWith(roughStem(term.word)))) return true;
  if (word === term.word || roughStem(word) === roughStem(term.word)) return true;
  // "innovators" for "innovation": the engines' stemmers join such words, the rough stem does not.
  return term.word.length >= 6 && sharedPrefix(word, term.word) >= Math.max(5, term.word.length - 3);
}

/**
 * Up to `maxWords` words from the text that holds most of the reader's words, with those words
 * marked; from the start of the first text when none holds any. The texts are read in order and
 * only until one holds every word, so a lazy iterable spares the caller making the rest.
 */
export function snippet(texts: Iterable<string>, terms: Term[], maxWords = 40): SnippetPart[] {
  let best: { tokens: string[]; hits: boolean[]; score: number } | null = null;
  const wanted = new Set(terms.map((t) => t.word)).size;
  const openings = terms.map((t) => t.word.slice(0, 3));
  for (const text of texts) {
    // The first text holding every word is as good as any later one.
    if (best && best.score === wanted) break;
    // A text without any word's first letters scores nothing: after the first, none is split.
    if (best && !openings.some((opening) => text.toLowerCase().includes(opening))) continue;
    const tokens = text.split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    const found = new Set<string>();
    const hits = tokens.map((token) => {
      let hit = false;
      for (const term of terms) {
        if (!matchesTerm(token, term)) continue;
        hit = true;
        found.add(term.word);
      }
      return hit;
    });
    const score = found.size;
    if (!best || score > best.score) best = { tokens, hits, score };
  }
  if (!best) return [];
  const { tokens, hits } = best;
  const first = hits.indexOf(true);
  const start = first <= 8 ? 0 : Math.min(first - 8, Math.max(0, tokens.length - maxWords));
  const end = Math.min(tokens.length, start + maxWords);
  const parts: SnippetPart[] = [];
  const push = (text: string, mark: boolean) => {
    const last = parts[parts.length - 1];
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
  };
  if (start > 0) push("… ", false);
  for (let i = start; i < end; i++) {
    if (i > start) push(" ", false);
    if (hits[i]) {
      // Punctuation around a word stays outside the mark.
      const [, lead = "", core = "", trail = ""] = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(tokens[i]!) ?? [];
      if (lead) push(lead, false);
      push(core, true);
      if (trail) push(trail, false);
    } else {
      push(tokens[i]!, false);
    }
  }
  if (end < tokens.length) push(" …", false);
  return parts;
}
