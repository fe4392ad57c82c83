import { redirect } from 'next/navigation';
import { PAGE_PATHS } from '@/lib/http/paths';

/** The dashboard is the transactions page; the home URL leads there (and to sign-in when needed). */
export default function Home(): never {
  redirect(PAGE_PATHS.transactions);
}
