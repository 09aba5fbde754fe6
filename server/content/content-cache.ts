import { LRUCache } from "lru-cache";
import type { Database } from "~/server/db/connection";

/**
 * A small least-recently-used cache for read-only content. Entries are kept per database (so
 * tests with their own databases never share them), at most `size` of them, and for at most
 * `ttlMs`, so content changed by another process (a reseed) shows within that time.
 */
export class ContentCache<V> {
  private readonly byDb = new WeakMap<Database, LRUCache<string, Promise<V>>>();

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
    /** The clock entries age by; tests pass one they move by hand. */
    private readonly clock: { now(): number } = performance,
  ) {}

  get(db: Database, key: string, load: () => Promise<V>): Promise<V> {
    let entries = this.byDb.get(db);
    if (!entries) {
      // ttlResolution 0: read the clock on every lookup rather than reuse a reading for a while.
      entries = new LRUCache({ max: this.size, ttl: this.ttlMs, ttlResolution: 0, perf: this.clock });
      this.byDb.set(db, entries);
    }
    const hit = entries.get(key);
    if (hit) return hit;
    const value = load();
    const cache = entries.set(key, value);
    // A failed load is not kept: the next request tries again.
    value.catch(() => {
      if (cache.peek(key) === value) cache.delete(key);
    });
    return value;
  }

  delete(db: Database, key: string): void {
    this.byDb.get(db)?.delete(key);
  }
}
