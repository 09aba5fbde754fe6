import * as css from "./prose.css";

export function MaintenanceNotice() {
  return (
    <div className={css.notice} role="status">
      <h2>Down for maintenance</h2>
      <p>This list is unavailable while we carry out scheduled maintenance. Please try again shortly.</p>
      <p>Ordering and order history are unavailable from 7:30am to 10am EST.</p>
    </div>
  );
}
