/**
 * A small least-recently-used map of at most `limit` entries: what one process remembers between
 * requests to skip a read (decision 052). It is never the truth: whoever reads from it lets a
 * statement's conditions decide and forgets the entry when they do not hold.
 */
export class BoundedMemory<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly limit: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
