/**
 * What other features and the pages may use of team mode, safe in the browser. Everything else in this folder is its own.
 */
export {
  AUDIT_ACTIONS,
  REVEAL_LIMIT_PROBLEM,
  REVEAL_REASON_MAX,
  REVEAL_REASON_MIN,
  ROLE_NEEDED_PROBLEM,
  ROLES,
  TEAM_SECRET_REFUSED_PROBLEM,
  isAuditAction,
  isRole,
  roleAtLeast,
  rolesMasked,
  type AuditAction,
  type AuditEntry,
  type AuditPage,
  type Role,
  type SignedInPersonView,
  type TeamAccount,
  type TeamPerson,
} from './api';
export { MASKED_FIELDS, isMaskedValue, maskNumber, maskRecord } from './masking';
export { MASKED_SUFFIX_DIGITS, refusedParam } from './query-rules';
