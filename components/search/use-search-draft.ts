'use client';
/**
 * The search form's draft, kept beside the URL it edits. It follows the URL when the URL changes
 * under it (back/forward, a pasted link, "filter by this" elsewhere) and is re-read in the new zone
 * when only the zone changes, so unsaved edits survive a UTC/JST toggle.
 */
import { useState } from 'react';
import type { Zone } from '@/lib/time/zones';
import { DEFAULT_PRESET, presetRange } from '@/lib/search';
import type { WallRange } from '@/lib/search';
import { draftOfQuery, emptyFilters, rezoneDraft, type SearchDraft } from '@/lib/search';
import { filterValuesOf, type PageUrlValues, type SearchState } from '@/lib/search';

/** Identifies the search the URL holds, by instants: a zone toggle alone does not reset the form. */
function draftKeyOf(url: PageUrlValues, search: SearchState): string {
  const filters = JSON.stringify(filterValuesOf(url));
  if (search.kind === 'ready')
    return `ready|${search.query.from.toISOString()}|${search.query.to.toISOString()}|${filters}`;
  return `${search.kind}|${url['date-from'] ?? ''}|${url['date-to'] ?? ''}|${filters}`;
}

/** The URL's search as a draft; `fallback` is the range offered when the URL has none. */
function draftOfUrl(url: PageUrlValues, search: SearchState, fallback: WallRange): SearchDraft {
  if (search.kind === 'ready') return draftOfQuery(search.query);
  const range = search.kind === 'idle' ? fallback : { dateFrom: url['date-from'] ?? '', dateTo: url['date-to'] ?? '' };
  return { range, filters: { ...emptyFilters(), ...filterValuesOf(url) } };
}

/**
 * `initialRange` serves the first render (computed by the server for this request, so the
 * hydrated form matches it); later resets compute the default range afresh.
 */
export function useSearchDraft(url: PageUrlValues, search: SearchState, zone: Zone, initialRange: WallRange) {
  const key = draftKeyOf(url, search);
  const [state, setState] = useState(() => ({ key, zone, draft: draftOfUrl(url, search, initialRange) }));
  let draft = state.draft;
  // Adjusting state while rendering (React's pattern for state derived from changing props).
  if (state.key !== key) {
    draft = draftOfUrl(url, search, presetRange(DEFAULT_PRESET, new Date(), zone));
    setState({ key, zone, draft });
  } else if (state.zone !== zone) {
    draft = rezoneDraft(state.draft, state.zone, zone);
    setState({ key, zone, draft });
  }
  const setDraft = (next: SearchDraft) => setState((s) => ({ ...s, draft: next }));
  return [draft, setDraft] as const;
}
