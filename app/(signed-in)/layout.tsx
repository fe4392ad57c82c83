import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { REQUEST_PATH_HEADER, safeRequestPath } from '@/lib/http/request-path';
import { preferredZone, requirePageSession } from '@/lib/root/page-session';
import { AccountProvider } from '@/components/shell/account-context';
import { AppShell } from '@/components/shell/app-shell';
import { PreferredZoneProvider } from '@/components/common/preferred-zone';
import { StoreUnavailable } from '@/components/common/store-unavailable';
import { STORE_RETRY_AFTER_S } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

/**
 * Every signed-in page: the session is checked here, once, and the shell (header, quota, lookup,
 * account) drawn around the page; while the store cannot be reached, a page that says so instead. Without a session, sign-in, then back to the same view. The data
 * of every page comes from the API, whose handlers check the session themselves on each request.
 */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const path = safeRequestPath((await headers()).get(REQUEST_PATH_HEADER));
  const session = await requirePageSession(path ?? undefined);
  if ('unavailable' in session) return <StoreUnavailable retrySeconds={STORE_RETRY_AFTER_S} />;
  const { account } = session;
  return (
    <AccountProvider account={account}>
      <PreferredZoneProvider initial={await preferredZone()}>
        <AppShell account={account}>{children}</AppShell>
      </PreferredZoneProvider>
    </AccountProvider>
  );
}
