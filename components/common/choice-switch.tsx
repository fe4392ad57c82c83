'use client';
/**
 * A choice among a few values as one switch (a radio group): click or arrow keys pick, the picked
 * one holds the focus. Drawn by the UTC/JST toggle and the language switch alike.
 */
import type { ReactNode } from 'react';
import styles from './zone-toggle.module.css';

export interface ChoiceOption<T extends string> {
  value: T;
  label: ReactNode;
  title: string;
  /** The language the label is written in, when it is not the page's. */
  lang?: string;
}

export function ChoiceSwitch<T extends string>({
  label,
  options,
  value,
  onChange,
  name,
  busy = false,
}: {
  label: string;
  options: readonly ChoiceOption<T>[];
  value: T;
  onChange: (next: T) => void;
  /** Each option is marked `data-<name>="<value>"` (tests and styles find it by it). */
  name: string;
  busy?: boolean;
}) {
  return (
    <div className={styles.toggle} role="radiogroup" aria-label={label} aria-busy={busy || undefined}>
      {options.map((o, i) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          className={styles.option}
          title={o.title}
          lang={o.lang}
          onClick={() => o.value !== value && onChange(o.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
              e.preventDefault();
              const next = options[(i + (e.key === 'ArrowRight' ? 1 : options.length - 1)) % options.length]!.value;
              onChange(next);
              (e.currentTarget.parentElement?.querySelector(`[data-${name}="${next}"]`) as HTMLElement | null)?.focus();
            }
          }}
          tabIndex={o.value === value ? 0 : -1}
          {...{ [`data-${name}`]: o.value }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
