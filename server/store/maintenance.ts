import type { Config } from "~/server/config";

export interface StoreMaintenance {
  /** Ordering and order history are closed right now. */
  closed: boolean;
  /** The daily window as the notice words it, e.g. "7:30am to 10am EST"; null when there is none. */
  window: string | null;
}

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h! * 60 + m!;
};

function clockLabel(hhmm: string): string {
  const total = minutes(hhmm) % (24 * 60);
  const h = Math.floor(total / 60);
  const m = total % 60;
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return `${hour12}${m ? `:${String(m).padStart(2, "0")}` : ""}${h < 12 ? "am" : "pm"}`;
}

const clocks = new Map<string, Intl.DateTimeFormat>();
function clockIn(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock)
    clocks.set(timeZone, (clock = new Intl.DateTimeFormat("en-US", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })));
  return clock;
}

/** The minute of the day at `now` in a time zone (daylight saving included). */
function localMinuteOfDay(now: Date, timeZone: string): number {
  const parts = clockIn(timeZone).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 60 + part("minute");
}

/**
 * Whether the store's ordering and order history are closed at `now`: every day inside the
 * configured window (the spec's 7:30am to 10am Eastern), and whenever the maintenance switch is
 * on. The cart is never closed. `now` is a parameter so tests can set the clock.
 */
export function storeMaintenance(
  config: Pick<Config, "MAINTENANCE_MODE" | "STORE_MAINTENANCE_WINDOW" | "STORE_TIMEZONE">,
  now = new Date(),
): StoreMaintenance {
  const spec = config.STORE_MAINTENANCE_WINDOW;
  const zoneLabel = config.STORE_TIMEZONE === "America/New_York" ? "EST" : config.STORE_TIMEZONE;
  if (spec === "off") return { closed: config.MAINTENANCE_MODE, window: null };
  const [from, to] = spec.split("-") as [string, string];
  const start = minutes(from);
  const end = minutes(to);
  const at = localMinuteOfDay(now, config.STORE_TIMEZONE);
  // A window may run past midnight (e.g. 23:00-01:00).
  const inWindow = start <= end ? at >= start && at < end : at >= start || at < end;
  return { closed: config.MAINTENANCE_MODE || inWindow, window: `${clockLabel(from)} to ${clockLabel(to)} ${zoneLabel}` };
}
