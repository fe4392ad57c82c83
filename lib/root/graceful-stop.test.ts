import { describe, expect, it, vi } from 'vitest';
import { installGracefulStop } from './graceful-stop';

function fakeProcess(manual: boolean) {
  const listeners = new Map<string, () => void>();
  const order: string[] = [];
  let finish!: () => void;
  const deps = {
    manual,
    on: (signal: 'SIGTERM' | 'SIGINT', listener: () => void) => void listeners.set(signal, listener),
    exit: vi.fn((code: number) => void order.push(`exit ${code}`)),
    stopBackground: vi.fn(
      () =>
        new Promise<void>((resolve) => {
          order.push('stopping');
          finish = () => {
            order.push('stopped');
            resolve();
          };
        }),
    ),
  };
  return { deps, listeners, order, finish: () => finish() };
}

describe('a stop signal', () => {
  it('ends the process only once background work has finished its steps, once however many signals come', async () => {
    const p = fakeProcess(true);
    installGracefulStop(p.deps);
    p.listeners.get('SIGTERM')!();
    p.listeners.get('SIGINT')!();
    await Promise.resolve();
    expect(p.deps.exit).not.toHaveBeenCalled();
    p.finish();
    await vi.waitFor(() => expect(p.deps.exit).toHaveBeenCalledWith(143));
    expect(p.order).toEqual(['stopping', 'stopped', 'exit 143']);
    expect(p.deps.stopBackground).toHaveBeenCalledTimes(1);
  });

  it('is left to Next.js when it kept the signals (NEXT_MANUAL_SIG_HANDLE unset)', () => {
    const p = fakeProcess(false);
    installGracefulStop(p.deps);
    expect(p.listeners.size).toBe(0);
  });
});
