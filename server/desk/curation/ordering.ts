// The curation forms' buttons, as they work without JS: each is a submit button whose intent
// names what to do with the list the form holds ("up-2", "down-0", "remove-1").

export type ListMove = { kind: "up" | "down" | "remove"; index: number };

/** The move an intent names, or null for any other intent. */
export function listMove(intent: string): ListMove | null {
  const match = /^(up|down|remove)-(\d{1,4})$/.exec(intent);
  return match ? { kind: match[1] as ListMove["kind"], index: Number(match[2]) } : null;
}

/** The list with the move made; a move off either end, or of no item, leaves it as it was. */
export function applyMove<T>(items: readonly T[], move: ListMove): T[] {
  const next = [...items];
  const { index } = move;
  if (index >= next.length) return next;
  if (move.kind === "remove") next.splice(index, 1);
  else {
    const other = move.kind === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= next.length) return next;
    [next[index], next[other]] = [next[other]!, next[index]!];
  }
  return next;
}
