/**
 * The History page's controls in one panel: the start day with Start / Pause, copying while signed
 * out, and deleting the copy.
 */
import type { HistoryState } from '@/lib/history';
import { HistorySettingsForm } from './history-settings-form';
import { DeleteHistoryButton } from './delete-history-button';
import { KeepSignedOutToggle } from './keep-signed-out-toggle';
import styles from './history-controls.module.css';

export function HistoryControls({ state }: { state: HistoryState }) {
  return (
    <section className={`panel ${styles.controls}`} aria-labelledby="history-controls-title">
      <h2 id="history-controls-title" className="visually-hidden">
        Controls
      </h2>
      <HistorySettingsForm state={state} />
      <KeepSignedOutToggle state={state} />
      <div className={styles.end}>
        <DeleteHistoryButton state={state} />
      </div>
    </section>
  );
}
