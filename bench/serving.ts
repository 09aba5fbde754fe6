import type { ChildProcess } from "node:child_process";
import { browserFetch } from "./browser";

/** Waits (up to 30 s) until the production server just spawned answers its home page. */
export async function untilServing(child: ChildProcess, port: number): Promise<ChildProcess> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await browserFetch(`http://127.0.0.1:${port}/`)).ok) return child;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not start");
}
