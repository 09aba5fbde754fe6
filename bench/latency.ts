// Latency figures for the benchmarks: percentiles of exact per-call times, in process and over
// HTTP. autocannon's own latency summary has no p95 and keeps whole milliseconds, so each
// response's time is taken from its "response" event instead.
import autocannon from "autocannon";

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
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
}

/** GET `url` on `connections` keep-alive connections for `seconds`; latencies of 2xx answers only. */
export function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds }, (error: unknown, result: autocannon.Result) => {
      if (error) return reject(error instanceof Error ? error : new Error(String(error)));
      const elapsed = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      resolve({
        rps: (latencies.length + non2xx) / elapsed,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        non2xx,
        errors: result.errors,
      });
    });
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else non2xx++;
    });
  });
}
