/**
 * The file's count checked against what the upstream said: the sum of total_found over the windows
 * read, less the records counted by two windows (they share a boundary instant), must equal the
 * rows written. Any difference is reported in the job, never hidden: a record that moved, a page the
 * upstream shortened, records beyond its 1000-page reach.
 */
import { msg, type Message } from '../i18n/message';
import type { ExportCountCheck } from './api';

export interface WindowCount {
  totalFound: number;
  /** Rows the upstream sent for this window (before de-duplication). */
  received: number;
  /** Wall-clock label for messages, e.g. "2026-11-01 00:00:00 – 2026-11-08 00:00:00". */
  label: string;
}

export interface CountInput {
  windows: readonly WindowCount[];
  written: number;
  duplicates: number;
  /** Of `duplicates`, records seen in two different windows (the shared boundary). */
  overlapDuplicates: number;
}

export function checkCount(input: CountInput): { check: ExportCountCheck; warnings: Message[] } {
  const expected = input.windows.reduce((sum, w) => sum + w.totalFound, 0);
  const difference = input.written - (expected - input.overlapDuplicates);
  const warnings: Message[] = [];
  for (const w of input.windows) {
    if (w.received !== w.totalFound) {
      warnings.push(msg('exports.warning.windowShort', { window: w.label, reported: w.totalFound, sent: w.received }));
    }
  }
  if (difference !== 0) {
    warnings.push(
      msg('exports.warning.fileCount', {
        written: input.written,
        more: difference > 0 ? 'yes' : 'no',
        difference: Math.abs(difference),
        expected,
        overlap: input.overlapDuplicates,
      }),
    );
  }
  return {
    check: { expected, written: input.written, duplicates: input.duplicates, difference, ok: difference === 0 },
    warnings,
  };
}
