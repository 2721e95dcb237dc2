// The bytes of request bodies the server holds at once, across every connection. Each request's limit bounds one
// body; this bounds their sum, so that many clients sending bodies slowly (or never finishing them) cannot make the
// server hold more memory than it was given.

/** One request's share: bytes are taken as they arrive and given back once the request is answered or refused. */
export interface BodyHold {
  /** Takes `bytes` more; false, taking nothing, when that would pass the budget. */
  take(bytes: number): boolean;
  release(): void;
}

export class BodyBudget {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Bytes held now, by every request together. */
  get held(): number {
    return this.#held;
  }

  open(): BodyHold {
    let mine = 0;
    return {
      take: (bytes) => {
        if (this.#held + bytes > this.limit) return false;
        this.#held += bytes;
        mine += bytes;
        return true;
      },
      release: () => {
        this.#held -= mine;
        mine = 0;
      },
    };
  }
}
