import { formatUsd } from "~/app/lib/content/format";
import * as css from "./cart.css";

const TYPE_MEANING = { Ship: "Ships to you", Perm: "Copyright permission" } as const;

/** A line's type in the spec's word, with what it means beside the words a shopper would not know. */
export function LineTypeLabel({ type }: { type: "Ship" | "Digital" | "Perm" }) {
  if (type === "Digital") return <>{type}</>;
  return (
    <>
      {type} <span className={css.muted}>{TYPE_MEANING[type]}</span>
    </>
  );
}

/** The unit price, with the list price and the volume discount when one applies. */
export function UnitPrice({
  unitPriceCents,
  listPriceCents,
  percentOff,
}: {
  unitPriceCents: number;
  listPriceCents: number;
  percentOff: number;
}) {
  if (percentOff === 0) return <>{formatUsd(unitPriceCents)}</>;
  return (
    <>
      {formatUsd(unitPriceCents)}
      <span className={css.muted}>
        {percentOff}% volume discount on {formatUsd(listPriceCents)}
      </span>
    </>
  );
}
