import 'server-only';
/**
 * Upstream pages background work has paid for and could not store yet (the store's disk is full,
 * or it is out of reach for longer than a step waits): kept in memory, so the step that runs again
 * stores the same page instead of paying for it a second time. A step takes its page with
 * `fetch(key, call)` — the held page when there is one, else the call's — and says `stored(key)`
 * once the page is kept or no longer wanted; a page whose storing failed for want of the store
 * stays held. Bounded: a few pages per running export or copy at most (one step at a time each);
 * past MAX_HELD the oldest is let go (it is paid for again when asked).
 *
 * One holder for the process, on `globalThis` (the runners are built once; the copy of this module
 * they run with may be any bundle's).
 */
import { log } from '../log';

/** Pages of about 100 KB: about 6 MB at most. */
const MAX_HELD = 64;

export class PaidPages {
  private readonly held = new Map<string, unknown>();

  /** The page held for `key`, or what `call` answers (held until `stored`). */
  async fetch<T extends { calls: number }>(key: string, call: () => Promise<T>): Promise<T> {
    if (this.held.has(key)) {
      // Not the key: it holds the query, which may name a phone number.
      log.info('background.paid_page_reused', { held: this.held.size });
      // As it was answered, its calls included: they were spent for this page, and are counted
      // when it is stored (the try that failed stored nothing, the count neither).
      return this.held.get(key) as T;
    }
    const answer = await call();
    this.held.set(key, answer);
    while (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value as string);
    return answer;
  }

  /** The page of `key` is kept (or not wanted): no longer held. */
  stored(key: string): void {
    this.held.delete(key);
  }

  /** How many pages are held (tests, logs). */
  get size(): number {
    return this.held.size;
  }
}

const HOLDER_KEY = Symbol.for('sms-dashboard.paid-pages');
const holder = globalThis as unknown as { [HOLDER_KEY]?: PaidPages };

/** The process's holder. */
export function paidPages(): PaidPages {
  return (holder[HOLDER_KEY] ??= new PaidPages());
}
