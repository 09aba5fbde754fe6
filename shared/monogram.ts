// An author without an uploaded photo gets a monogram in its place (issue 41): their initials on
// a colour of the site's art picked by their name, the same wherever they appear.

/** Grounds of the drawn art (server/images/illustration.ts), each dark enough for white letters. */
const GROUNDS = ["#7a2e2e", "#1f3a5f", "#2f5233", "#22495c", "#3a3f47", "#4b3869", "#2d3e50", "#7a1f3d", "#5c2a4d", "#8a4b08"];

/** The first letter of the name's first and last words ("Mary-Kate O'Neill" is MO), and its colour. */
export function monogramOf(name: string): { initials: string; colour: string } {
  const words = name.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  const first = words[0]?.[0] ?? "";
  const last = words.length > 1 ? (words[words.length - 1]![0] ?? "") : "";
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return { initials: (first + last).toUpperCase(), colour: GROUNDS[hash % GROUNDS.length]! };
}
