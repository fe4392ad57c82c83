'use client';
/**
 * The History page's controls in one panel: the start day with Start / Pause, syncing while signed
 * out, and deleting the local history.
 */
import { useTranslations } from 'next-intl';
import type { HistoryState } from '@/lib/history';
import { HistorySettingsForm } from './history-settings-form';
import { DeleteHistoryButton } from './delete-history-button';
import { KeepSignedOutToggle } from './keep-signed-out-toggle';
import styles from './history-controls.module.css';

export function HistoryControls({ state }: { state: HistoryState }) {
  const t = useTranslations('history.controls');
  return (
    <section className={`panel ${styles.controls}`} aria-labelledby="history-controls-title">
      <h2 id="history-controls-title" className="visually-hidden">
        {t('title')}
      </h2>
      <HistorySettingsForm state={state} />
      <KeepSignedOutToggle state={state} />
      <div className={styles.end}>
        <DeleteHistoryButton state={state} />
      </div>
    </section>
  );
}
