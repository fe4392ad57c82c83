'use client';
/**
 * The account's quota, for every component that shows any of it. The server renders without it
 * (it is the browser's query), and a part of the page hydrated after the header may find it already
 * fetched by the header's meter: drawn then, it would not match the server's HTML, and React would
 * throw that part away and draw it again (error #418, and the focus inside it lost). So it is given
 * to components only once the page is hydrated.
 */
import { useQuery } from '@tanstack/react-query';
import { quotaQueryOptions } from '@/lib/governor/client';
import { useHydrated } from '../common/use-hydrated';

export function useQuota() {
  const query = useQuery(quotaQueryOptions());
  const hydrated = useHydrated();
  return { quota: hydrated ? query.data : undefined, isError: hydrated && query.isError, refetch: query.refetch };
}
