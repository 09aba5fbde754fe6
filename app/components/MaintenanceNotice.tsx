import { useRootData } from "~/app/lib/http/root-data";
import * as css from "./prose.css";

export function MaintenanceNotice() {
  const hours = useRootData()?.maintenance?.window;
  return (
    <div className={css.notice} role="status">
      <h2>Down for maintenance</h2>
      <p>This list is unavailable while we carry out scheduled maintenance. Please try again shortly.</p>
      {hours ? <p>Ordering and order history are unavailable from {hours}.</p> : null}
    </div>
  );
}
