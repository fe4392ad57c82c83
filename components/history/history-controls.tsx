/**
 * The History page's controls in one panel: the start day with Start / Pause, copying while signed
 * out, and deleting the copy.
 */
import type { MirrorState } from '@/lib/api/mirror';
import { CopyForm } from './copy-form';
import { DeleteCopyButton } from './delete-copy-button';
import { KeepSignedOutToggle } from './keep-signed-out-toggle';
import styles from './history-controls.module.css';

export function HistoryControls({ state }: { state: MirrorState }) {
  return (
    <section className={`panel ${styles.controls}`} aria-labelledby="history-controls-title">
      <h2 id="history-controls-title" className="visually-hidden">
        Controls
      </h2>
      <CopyForm state={state} />
      <KeepSignedOutToggle state={state} />
      <div className={styles.end}>
        <DeleteCopyButton state={state} />
      </div>
    </section>
  );
}
