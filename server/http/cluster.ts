import cluster, { type Worker } from "node:cluster";
import type { Config } from "~/server/config";
import { log } from "~/server/log";

/** What a worker tells the primary, and the primary tells a worker (over the IPC channel). */
export type WorkerMessage = "draining";
export type PrimaryMessage = "drain" | "cut-off";

/**
 * The primary of `WEB_CONCURRENCY` server processes (node:cluster; they share the port, and
 * the primary hands each new connection to the next process in turn). It replaces a process
 * that dies, and on SIGTERM or SIGINT tells each one to drain; a second signal cuts off the
 * requests still in flight. It exits once every process has, with 1 if any of them failed.
 */
export function runPrimary(config: Pick<Config, "WEB_CONCURRENCY" | "SHUTDOWN_GRACE_SECONDS" | "siteUrl" | "NODE_ENV">): void {
  const { WEB_CONCURRENCY: processes, SHUTDOWN_GRACE_SECONDS: graceSeconds, siteUrl } = config;
  // Kept here rather than read from cluster.workers, which may still hold a process that has
  // exited until its channel closes.
  const alive = new Set<Worker>();
  const listening = new Set<Worker>();
  let stopping: string | undefined;
  let failed = false;
  let announced = false;
  let drainAnnounced = false;
  const draining = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.once("listening", (address) => {
      listening.add(worker);
      if (stopping) return void send(worker, "drain");
      if (!announced && listening.size === processes) {
        announced = true;
        // A worker listening on every interface reports no address.
        const where =
          address.addressType === -1
            ? String(address.address)
            : address.address
              ? `${address.address}:${address.port}`
              : `port ${address.port} on every interface`;
        log.info(`Meridian Review listening on ${where} (${config.NODE_ENV}, ${processes} processes) at ${siteUrl}`);
      }
    });
    worker.on("message", (message: WorkerMessage) => {
      if (message !== "draining" || !stopping) return;
      draining.add(worker);
      announceDrain();
    });
    worker.once("exit", (code, signal) => {
      alive.delete(worker);
      const hadListened = listening.delete(worker);
      draining.delete(worker);
      if (stopping) {
        if (code !== 0 && hadListened) failed = true;
        if (alive.size === 0) process.exit(failed ? 1 : 0);
        announceDrain();
        return;
      }
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!hadListened) {
        // It failed while starting (its error is above); starting another would fail the same way.
        log.error(`A server process exited with ${how} before it listened; stopping`);
        failed = true;
        stop("Startup failure");
        return;
      }
      log.error(`Server process ${worker.process.pid} exited with ${how}; starting another`);
      fork();
    });
  };

  // The port is closed once every process has closed its share of it: each says "draining"
  // after closing, and the channel keeps that behind the close itself.
  const announceDrain = () => {
    if (!stopping || drainAnnounced || ![...listening].every((worker) => draining.has(worker))) return;
    drainAnnounced = true;
    log.info(`${stopping}: no new connections; finishing requests in flight (up to ${graceSeconds} s)`);
  };

  const stop = (signal: string) => {
    if (stopping) {
      log.info(`${signal} again: cutting off the requests in flight`);
      for (const worker of alive) send(worker, "cut-off");
      return;
    }
    stopping = signal;
    for (const worker of alive) {
      // A process still starting has no requests, and no drain handler yet: it just stops.
      if (listening.has(worker)) send(worker, "drain");
      else worker.process.kill("SIGTERM");
    }
    announceDrain();
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));
  for (let i = 0; i < processes; i++) fork();
}

function send(worker: Worker, message: PrimaryMessage): void {
  if (worker.isConnected()) worker.send(message);
}
