import * as css from "~/app/components/prose.css";

/** Shown where ordering or order history is closed (server/store/maintenance.ts decides when). */
export function StoreMaintenanceNotice({ window }: { window: string | null }) {
  return (
    <div className={css.notice} role="status">
      <h2>Ordering is closed for maintenance</h2>
      <p>
        {window
          ? `Ordering and order history are unavailable from ${window} each day while we carry out maintenance.`
          : "Ordering and order history are unavailable while we carry out maintenance."}{" "}
        Your shopping cart is kept as it is: please come back to complete your order later.
      </p>
    </div>
  );
}
