'use client';
import { useState } from 'react';
import { PAGE_PATHS } from '@/lib/ui/paths';

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        // next-auth's client is loaded on the click, not with every page: it is ~10 kB gzip.
        const { signOut } = await import('next-auth/react');
        await signOut({ callbackUrl: PAGE_PATHS.signIn });
      }}
    >
      {busy ? 'Signing out…' : 'Sign out'}
    </button>
  );
}
