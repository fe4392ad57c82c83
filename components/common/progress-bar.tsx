/**
 * A progress bar with its text beside it: an export's pages, the local history's days. The bar is
 * an ARIA progressbar whose value text is the same words as shown; `percent` null means not known
 * yet (drawn faint, no value announced).
 */
import styles from './progress-bar.module.css';

export interface ProgressBarProps {
  percent: number | null;
  text: string;
  /** The bar's name: a label of its own, or the id of the heading it belongs to. */
  label: { 'aria-label': string } | { 'aria-labelledby': string };
  tone?: 'accent' | 'success';
  className?: string;
  textTestId?: string;
}

export function ProgressBar({ percent, text, label, tone = 'accent', className, textTestId }: ProgressBarProps) {
  return (
    <div className={className ? `${styles.row} ${className}` : styles.row}>
      <div
        className={styles.bar}
        data-tone={tone}
        role="progressbar"
        {...label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
      >
        <span style={{ width: `${percent ?? 0}%` }} data-indeterminate={percent === null ? 'true' : undefined} />
      </div>
      <span className={styles.text} data-testid={textTestId}>
        {text}
      </span>
    </div>
  );
}
