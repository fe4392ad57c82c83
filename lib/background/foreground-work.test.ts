import { describe, expect, it } from 'vitest';
import { ForegroundWork } from './foreground-work';

describe('foreground work', () => {
  it('lets background steps through at once when nothing runs, and holds them until every foreground work has ended', async () => {
    const fg = new ForegroundWork();
    const seen: string[] = [];
    await fg.idle();
    seen.push('idle at once');

    let endFirst!: () => void;
    let endSecond!: () => void;
    const first = fg.run(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = fg.run(() => new Promise<void>((resolve) => (endSecond = resolve)));
    const background = fg.idle().then(() => seen.push('background step'));

    endFirst();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['idle at once']);

    endSecond();
    await second;
    await background;
    expect(seen).toEqual(['idle at once', 'background step']);
  });

  it('gives back what the work returns and lets waiting steps go when it fails', async () => {
    const fg = new ForegroundWork();
    expect(await fg.run(async () => 42)).toBe(42);
    let fail!: (err: Error) => void;
    const failing = fg.run(() => new Promise<void>((_, reject) => (fail = reject)));
    const background = fg.idle();
    fail(new Error('disk full'));
    await expect(failing).rejects.toThrow('disk full');
    await expect(background).resolves.toBeUndefined();
  });
});
