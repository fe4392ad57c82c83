'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import styles from './app-header.module.css';

/** A header link that knows it is the current section (aria-current). */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} className={styles.navLink} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}
