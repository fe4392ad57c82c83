import { afterEach, describe, expect, it, vi } from 'vitest';
import { installGracefulStop, isStopping, type StopDeps } from './graceful-stop';

function fakeProcess(manual: boolean, opts: { backgroundHangs?: boolean } = {}) {
  const listeners = new Map<string, () => void>();
  const order: string[] = [];
  let finish!: () => void;
  const deps: StopDeps = {
    manual,
    deadlineMs: 300,
    graceMs: 100,
    on: (signal, listener) => void listeners.set(signal, listener),
    exit: vi.fn((code: number) => void order.push(`exit ${code}`)),
    drainRequests: vi.fn(async (graceMs: number) => {
      order.push(`requests ${graceMs}`);
      return 0;
    }),
    stopBackground: vi.fn(
      (graceMs: number) =>
        new Promise<void>((resolve) => {
          order.push(`stopping ${graceMs}`);
          if (opts.backgroundHangs) return;
          finish = () => {
            order.push('stopped');
            resolve();
          };
        }),
    ),
    close: vi.fn(async () => void order.push('closed')),
  };
  return { deps, listeners, order, finish: () => finish() };
}

afterEach(() => vi.useRealTimers());

describe('a stop signal', () => {
  it('drains requests and background work together, then closes the store, then ends; once however many signals come', async () => {
    const p = fakeProcess(true);
    installGracefulStop(p.deps);
    p.listeners.get('SIGTERM')!();
    p.listeners.get('SIGINT')!();
    expect(isStopping()).toBe(true);
    await Promise.resolve();
    expect(p.deps.exit).not.toHaveBeenCalled();
    p.finish();
    await vi.waitFor(() => expect(p.deps.exit).toHaveBeenCalledWith(143));
    expect(p.order).toEqual(['requests 100', 'stopping 100', 'stopped', 'closed', 'exit 143']);
    expect(p.deps.stopBackground).toHaveBeenCalledTimes(1);
    expect(p.deps.exit).toHaveBeenCalledTimes(1);
  });

  it('ends the process at the deadline when something never finishes (an upstream that hangs)', async () => {
    const p = fakeProcess(true, { backgroundHangs: true });
    installGracefulStop(p.deps);
    const started = performance.now();
    p.listeners.get('SIGINT')!();
    await vi.waitFor(() => expect(p.deps.exit).toHaveBeenCalledWith(130));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(p.deps.close).not.toHaveBeenCalled();
  });

  it('is left to Next.js when it kept the signals (NEXT_MANUAL_SIG_HANDLE unset)', () => {
    const p = fakeProcess(false);
    installGracefulStop(p.deps);
    expect(p.listeners.size).toBe(0);
  });
});
