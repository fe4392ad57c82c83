'use client';
/**
 * The URL of a page that shows a query (Transactions, Insights) as React state: what it has
 * searched, the settings a new search keeps, the open row, and the search form's draft kept beside
 * it. The URL is changed only by writing a whole query (or the open row) through the query codec
 * (lib/query/page-url.ts): no view patches a parameter by hand.
 *
 * The draft follows the URL when the URL changes under it (back/forward, a pasted link, "filter by
 * this" elsewhere) and is read again in the new zone when only the zone changes, so what the person
 * typed survives a UTC/JST toggle.
 */
import { useQueryStates } from 'nuqs';
import { useCallback, useMemo, useState } from 'react';
import { draftKeyOf, draftOfUrl, rezoneDraft, type SearchDraft, type WallRange } from '../query/draft';
import { readPageUrl, rezonedUrlValues, ROW_PARAM, urlValuesOf, type PageUrlValues } from '../query/page-url';
import type { TransactionsQuery } from '../query/query';
import type { Zone } from '../time/zones';
import { pageUrlParsers } from './page-url-parsers';

export interface SearchUrlOptions {
  /** The zone a page without one in its URL opens in: the one the person last picked. */
  preferredZone: Zone;
  /**
   * The range the form offers when the URL has none, on the first render: computed by the server for
   * this request, so the form the browser hydrates matches the server's.
   */
  initialRange: WallRange;
  /** The range offered when the URL loses its range later (the zone is the page's then). */
  defaultRange: (zone: Zone) => WallRange;
}

type History = 'push' | 'replace';
/** One object for every render, so nuqs's setter stays the same function. */
const URL_OPTIONS = { history: 'push' } as const;

export function useSearchUrl({ preferredZone, initialRange, defaultRange }: SearchUrlOptions) {
  const [values, setValues] = useQueryStates(pageUrlParsers, URL_OPTIONS);
  const page = useMemo(() => readPageUrl(values, preferredZone), [values, preferredZone]);
  const zone = page.settings.tz;
  const key = draftKeyOf(values, page.search);
  const [held, setHeld] = useState(() => ({ key, zone, draft: draftOfUrl(values, initialRange) }));
  let draft = held.draft;
  // Adjusting state while rendering (React's pattern for state derived from changing props).
  if (held.key !== key) {
    draft = draftOfUrl(values, defaultRange(zone));
    setHeld({ key, zone, draft });
  } else if (held.zone !== zone) {
    draft = rezoneDraft(held.draft, held.zone, zone);
    setHeld({ key, zone, draft });
  }

  // Stable between renders (an effect may depend on them); `rezone` reads the URL it is given.
  const write = useCallback(
    (next: PageUrlValues, history: History = 'push') => void setValues(next, { history }),
    [setValues],
  );
  const actions = useMemo(
    () => ({
      /** Shows `query` (the open row closed, unless one is named): a search, a page, an order, a page size. */
      show: (query: TransactionsQuery, options: { history?: History; row?: string | null } = {}) =>
        write(urlValuesOf(query, options.row ?? null), options.history),
      /** The same instants in another zone; the open row stays open. */
      rezone: (next: Zone) => write(rezonedUrlValues(values, zone, next)),
      openRow: (trxId: string, history: History = 'push') => write({ [ROW_PARAM]: trxId }, history),
      closeRow: () => write({ [ROW_PARAM]: null }),
      setDraft: (next: SearchDraft) => setHeld((h) => ({ ...h, draft: next })),
    }),
    [write, values, zone],
  );
  return { ...page, zone, draft, ...actions };
}

export type SearchUrl = ReturnType<typeof useSearchUrl>;
