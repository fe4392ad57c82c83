'use client';
/** The signed-in account, given once by the signed-in layout to every page and component below it. */
import { createContext, useContext, type ReactNode } from 'react';
import type { ShellAccount } from './account';

const AccountContext = createContext<ShellAccount | null>(null);

export function AccountProvider({ account, children }: { account: ShellAccount; children: ReactNode }) {
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

/** The signed-in account where there is one (the signed-in layout); null elsewhere (the sign-in page). */
export function useOptionalAccount(): ShellAccount | null {
  return useContext(AccountContext);
}

export function useAccount(): ShellAccount {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount must be used under the signed-in layout');
  return account;
}
