import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PeopleTable } from '@/components/team/people-table';
import { RoleNeeded } from '@/components/team/role-needed';
import { currentAccount, recheckPageSession } from '@/lib/root/page-session';
import { pageAllows } from '@/lib/root/page-role';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('team.people'))('title') };
}

/** Team mode's people (admins): roles, use of the shared accounts, suspensions. */
export default async function PeoplePage() {
  await recheckPageSession();
  const { role, allowed } = await pageAllows('admin');
  if (!allowed) return <RoleNeeded page="admin" needed="admin" yours={role} />;
  return <PeopleTable self={(await currentAccount())?.team?.person ?? null} />;
}
