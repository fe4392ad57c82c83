import 'server-only';
/**
 * What other features and the composition root may use of team mode on the server. Everything else in this folder is its own.
 */
export { presenterFor, type Presenter } from './presenter';
export { roleNeeded, teamSecretRefused } from './problems';
export { createTeamStores, type TeamStores } from './stores';
export { roleOf, TeamService, type AuditFields } from './team-service';
export { standInSid, teamAwareVault } from './team-vault';
export { auditCsv } from './audit-csv';
export { olderEntriesHref, parseAuditRequest } from './audit-request';
export {
  sessionChangeRequest,
  auditLogRequest,
  newAccountRequest,
  newSecretRequest,
  pageCsvRequest,
  revealRequest,
  suspensionRequest,
  type RevealRequest,
} from './requests';
