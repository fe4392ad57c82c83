import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AccountsPanel } from '@/components/team/accounts-panel';
import { RoleNeeded } from '@/components/team/role-needed';
import { pageAllows } from '@/lib/root/page-role';
import { recheckPageSession } from '@/lib/root/page-session';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('team.accounts'))('title') };
}

/** Team mode's accounts (admins): add one, replace a secret, remove one. */
export default async function AccountsPage() {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('admin');
  if (!allowed) return <RoleNeeded page="admin" needed="admin" yours={role} />;
  return <AccountsPanel />;
}
