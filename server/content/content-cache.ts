import { LRUCache } from "lru-cache";
import type { Database } from "~/server/db/connection";
import { contentGeneration, type Clock } from "./content-generation";

/** Where a cache learns which content generation the database is at (content-generation.ts). */
export type GenerationSource = (db: Database, clock: Clock) => Promise<number>;

interface Entries<V> {
  generation: number;
  lru: LRUCache<string, Promise<V>>;
}

/**
 * A small least-recently-used cache for content. Entries are kept per database (so tests with
 * their own databases never share them), at most `size` of them, and for at most `ttlMs`. When
 * content changes (a publish at the desk, in this process or another), the database's content
 * generation moves on and the cache empties itself at its next lookup, a second later at most.
 */
export class ContentCache<V> {
  private readonly byDb = new WeakMap<Database, Entries<V>>();

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
    /** The clock entries age by; tests pass one they move by hand. */
    private readonly clock: Clock = performance,
    private readonly generationOf: GenerationSource = contentGeneration,
  ) {}

  async get(db: Database, key: string, load: () => Promise<V>): Promise<V> {
    const generation = await this.generationOf(db, this.clock);
    let entries = this.byDb.get(db);
    if (!entries || entries.generation < generation) {
      // ttlResolution 0: read the clock on every lookup rather than reuse a reading for a while.
      entries = { generation, lru: new LRUCache({ max: this.size, ttl: this.ttlMs, ttlResolution: 0, perf: this.clock }) };
      this.byDb.set(db, entries);
    }
    const cache = entries.lru;
    const hit = cache.get(key);
    if (hit) return hit;
    const value = load();
    cache.set(key, value);
    // A failed load is not kept: the next request tries again.
    value.catch(() => {
      if (cache.peek(key) === value) cache.delete(key);
    });
    return value;
  }

  delete(db: Database, key: string): void {
    this.byDb.get(db)?.lru.delete(key);
  }
}
