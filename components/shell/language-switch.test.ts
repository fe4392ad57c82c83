/**
 * Picking a language: the cookie first; for a team person, their profile saved before the page is
 * drawn again (the profile comes first on the server); a personal session saves nothing; a profile
 * that could not be saved still leaves the page drawn again.
 */
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/locales';
import { switchLocale } from './language-switch';

function steps(teamPerson: boolean, save: (l: Locale) => Promise<unknown> = async () => ({})) {
  const done: string[] = [];
  return {
    done,
    steps: {
      teamPerson,
      remember: (l: Locale) => void done.push(`cookie ${l}`),
      save: async (l: Locale) => {
        await new Promise((r) => setTimeout(r, 5));
        await save(l);
        done.push(`profile ${l}`);
      },
      redraw: () => void done.push('redraw'),
    },
  };
}

describe('the language switch', () => {
  it('sets the cookie, saves a team person’s profile, then draws the page again', async () => {
    const { done, steps: s } = steps(true);
    await switchLocale('en', s);
    expect(done).toEqual(['cookie en', 'profile en', 'redraw']);
  });

  it('saves nothing for a personal session', async () => {
    const { done, steps: s } = steps(false);
    await switchLocale('ja', s);
    expect(done).toEqual(['cookie ja', 'redraw']);
  });

  it('draws the page again when the profile could not be saved', async () => {
    const { done, steps: s } = steps(true, async () => {
      throw new Error('offline');
    });
    await switchLocale('en', s);
    expect(done).toEqual(['cookie en', 'redraw']);
  });
});
