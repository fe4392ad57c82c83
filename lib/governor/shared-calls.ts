/**
 * Identical requests in flight share one upstream call (same account, same key): a person clicking
 * twice, or two tabs asking the same page, pay once. The call goes on while anyone who shares it
 * still waits, and is given up only when every one of them has gone away: the first one's going
 * would fail the others otherwise.
 */

/** A signal that aborts once every signal joined to it has (never, once one joined that cannot). */
export function sharedSignal(): { signal: AbortSignal; join(signal: AbortSignal | undefined): void } {
  const controller = new AbortController();
  let open = 0;
  let forever = false;
  return {
    signal: controller.signal,
    join(signal) {
      if (!signal) {
        forever = true;
        return;
      }
      if (signal.aborted) {
        // Gone before it joined: it waits for nothing (alone, the call is given up at once).
        if (open === 0 && !forever) controller.abort(signal.reason);
        return;
      }
      open += 1;
      signal.addEventListener(
        'abort',
        () => {
          open -= 1;
          if (open === 0 && !forever) controller.abort(signal.reason);
        },
        { once: true },
      );
    },
  };
}

export class SharedCalls {
  private readonly inFlight = new Map<
    string,
    { promise: Promise<unknown>; join(signal: AbortSignal | undefined): void }
  >();

  /**
   * The answer of the call in flight under `key`, joined with `signal`; or `run`'s, started now
   * with a signal that aborts once every sharer has gone.
   */
  share<T>(key: string, signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) {
      existing.join(signal);
      return existing.promise as Promise<T>;
    }
    const sharers = sharedSignal();
    sharers.join(signal);
    const promise = run(sharers.signal).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, { promise, join: sharers.join });
    return promise;
  }
}
