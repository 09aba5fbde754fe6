import { formatUsd } from "../../lib/format";
import * as css from "./cart.css";

/** A line's type as the spec names it; "Perm" is spelled out, since it means copyright permissions. */
export function LineTypeLabel({ type }: { type: "Ship" | "Digital" | "Perm" }) {
  if (type !== "Perm") return <>{type}</>;
  return (
    <>
      Perm <span className={css.muted}>(copyright permissions)</span>
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
