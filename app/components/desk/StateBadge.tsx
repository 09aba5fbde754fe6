import type { ReactNode } from "react";
import * as css from "./StateBadge.css";

export type BadgeTone = keyof typeof css.tone;

/** A desk record's state as a word in a box, in one of four tones. */
export function StateBadge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={css.tone[tone]}>{children}</span>;
}
