import { redirect } from 'next/navigation';

/** The dashboard is the transactions page; the home URL leads there (and to sign-in when needed). */
export default function Home(): never {
  redirect('/transactions');
}
