/**
 * This browser's last choice of "For Excel" (lib/csv/csv-format.ts), one preference for every CSV
 * the dashboard offers (a page, an export, a reconciliation's answers), kept where each dialog can
 * read it when it opens. Browser-only; storage a private window refuses is simply not remembered.
 */
const EXCEL_CHOICE_KEY = 'sms-csv-excel';

export function rememberedExcel(): boolean {
  try {
    return window.localStorage.getItem(EXCEL_CHOICE_KEY) === 'true';
  } catch {
    return false; // storage refused: the default
  }
}

export function rememberExcel(choice: boolean): void {
  try {
    window.localStorage.setItem(EXCEL_CHOICE_KEY, String(choice));
  } catch {
    // not remembered: chosen for this download only
  }
}
