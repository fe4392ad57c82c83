/**
 * What the pages' components may use of team mode in the browser only: React Query options and the
 * requests of its pages. Everything else in this folder is its own.
 */
export {
  TEAM_KEYS,
  accountsQueryOptions,
  addAccount,
  auditCsvText,
  auditQueryOptions,
  notePageCsv,
  peopleQueryOptions,
  removeAccount,
  replaceSecret,
  revealRecord,
  saveProfileLocale,
  setSuspended,
  teamSessionQueryOptions,
  switchAccount,
} from './queries';
