/**
 * Stopping background workers (export and sync runners) without wasting a call: each worker is
 * let finish the step it is in — a call in flight is paid for, so its page is worth storing — and
 * only a worker still busy after `graceMs` (a call stuck waiting for its turn, an upstream that
 * does not answer) is aborted. The workers' loops check the runner's stopped flag after each step.
 */
export interface Worker {
  abort: AbortController;
  done: Promise<void>;
}

/** How long a stop waits for steps in flight before aborting them (a deploy's patience). */
export const STOP_GRACE_MS = 10_000;

export async function drainWorkers(
  workers: readonly Worker[],
  reason: string,
  graceMs: number = STOP_GRACE_MS,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([Promise.all(workers.map((w) => w.done)), grace]);
  clearTimeout(timer);
  for (const w of workers) w.abort.abort(new Error(reason));
  await Promise.all(workers.map((w) => w.done));
}
