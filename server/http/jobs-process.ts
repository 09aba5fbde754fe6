import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { log } from "~/server/log";

/** A jobs process that dies is started again after this long. */
const RESTART_AFTER_MS = 5_000;

/**
 * Starts `count` scheduled-jobs processes (build/jobs.js, server/jobs/main.ts) beside the
 * processes that serve pages, and starts one again if it dies. They share each round's work as
 * the instances behind a balancer do: every step is conditional or keyed. `stop` asks them to
 * finish their round and exit; if this process exits first, they follow it (their IPC channel
 * closes).
 */
export function startJobsProcesses(count: number): { stop: () => void } {
  const entry = fileURLToPath(new URL("./jobs.js", import.meta.url));
  const children = new Set<ChildProcess>();
  let stopping = false;
  const start = () => {
    const child = fork(entry, [], { stdio: "inherit" });
    children.add(child);
    child.once("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      log.error(`The scheduled jobs' process ${child.pid} exited with ${signal ? `signal ${signal}` : `code ${code}`}; starting another`);
      setTimeout(() => stopping || start(), RESTART_AFTER_MS).unref();
    });
  };
  const stop = () => {
    stopping = true;
    for (const child of children) child.kill("SIGTERM");
  };
  process.once("exit", stop);
  for (let i = 0; i < count; i++) start();
  return { stop };
}
