/**
 * Who may reconcile (team mode, README "Team mode"): a reconciliation reads records, so it takes the
 * role that may read them, as a search or an export does; a viewer is refused with a 403 naming it.
 * Every reconciliation route names this, so the rule has one owner.
 */
import { msg } from '../i18n/message';

export const RECONCILE_ROLE = { least: 'support', what: msg('team.problems.roleNeeded.whatReconcile') } as const;
