// Latency figures for the benchmarks: percentiles of exact per-call times, in process and over
// HTTP. autocannon's own latency summary has no p95 and keeps whole milliseconds, so each
// response's time is taken from its "response" event instead.
import autocannon from "autocannon";
import { send, USER_AGENT } from "./browser";

/** The nearest-rank percentile of values sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Timing {
  p50: number;
  p99: number;
  /** How many calls were measured: fewer than asked when they ran out of time. */
  runs: number;
}

/**
 * Times `call` run one after another, milliseconds each, after `warmup` unmeasured calls. Stops
 * early once `budgetMs` is spent (on the warm-up or the runs), so that a query taking a second
 * does not hold the benchmark for minutes; at least 10 runs are measured.
 */
export async function timeCalls(call: () => Promise<unknown>, runs: number, { warmup = 20, budgetMs = 15_000 } = {}): Promise<Timing> {
  const warmUntil = performance.now() + budgetMs / 5;
  for (let i = 0; i < warmup && performance.now() < warmUntil; i++) await call();
  const until = performance.now() + budgetMs;
  const times: number[] = [];
  while (times.length < runs && (times.length < 10 || performance.now() < until)) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), runs: times.length };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers, 2xx or not. */
  answers: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
}

/** GET `url` as a browser on `connections` keep-alive connections for `seconds`; latencies of 2xx answers only. */
export function load(url: string, connections: number, seconds: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: seconds, headers: { "user-agent": USER_AGENT, ...headers } },
      (error: unknown, result: autocannon.Result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const elapsed = (performance.now() - started) / 1000;
        latencies.sort((a, b) => a - b);
        resolve({
          rps: (latencies.length + non2xx) / elapsed,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          p99: percentile(latencies, 99),
          answers: latencies.length + non2xx,
          non2xx,
          errors: result.errors,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else non2xx++;
    });
  });
}

/** Times of the 2xx answers, sorted, by what the guest-page cache said (X-Page-Cache; "none" where it does not apply). */
export interface EachOnce {
  times: Record<"hit" | "miss" | "none", number[]>;
  /** Answers outside 2xx, and requests that failed. */
  failed: number;
}

/** GETs each of `urls` once, `readers` at a time, each reader one request after another. */
export async function getEachOnce(urls: string[], readers: number): Promise<EachOnce> {
  const result: EachOnce = { times: { hit: [], miss: [], none: [] }, failed: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const started = performance.now();
        try {
          const res = await send(url);
          const ms = performance.now() - started;
          if (res.ok) result.times[(res.headers.get("x-page-cache") as "hit" | "miss" | null) ?? "none"].push(ms);
          else result.failed++;
        } catch {
          result.failed++;
        }
      }
    }),
  );
  for (const times of Object.values(result.times)) times.sort((a, b) => a - b);
  return result;
}
