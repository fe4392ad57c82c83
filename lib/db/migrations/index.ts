import 'server-only';
/**
 * Every migration, in order. A static list (not a folder read at run time) so the bundler sees
 * them. Names sort in the order they apply; a new migration is a new file and a new line here, and
 * an applied one is never edited.
 */
import type { Migration } from 'kysely';
import type { SqlDialect } from './column-types';
import { initialMigration } from './0001-initial';
import { callClassMigration } from './0002-call-class';
import { leasesMigration } from './0003-leases';
import { governorWaitersMigration } from './0004-governor-waiters';
import { signInAttemptsMigration } from './0005-sign-in-attempts';
import { historyMigration } from './0006-history';
import { insightsMigration } from './0010-insights';
import { historyBodiesMigration } from './0011-history-bodies';
import { recordPagesMigration } from './0012-record-pages';
import { textIndexByTransactionMigration } from './0013-text-index-by-transaction';
import { dayPacksMigration } from './0014-day-packs';
import { textIndexVocabularyMigration } from './0015-text-index-vocabulary';
import { historyDataApartMigration } from './0016-history-data-apart';
import { textIndexWhenIdleMigration } from './0017-text-index-when-idle';
import { exportOwnerMigration } from './0018-export-owner';
import { cachePageIndexMigration } from './0019-cache-page-index';
import { signInKnownAddressesMigration } from './0020-sign-in-known-addresses';
import { searchTextWithoutCiphertextMigration } from './0021-search-text-without-ciphertext';
import { endedSessionsMigration } from './0022-ended-sessions';
import { exportRowsByTimeMigration } from './0023-export-rows-by-time';
import { teamMigration } from './0024-team';
import { historyCompactMigration } from './0040-history-compact';
import { upstreamPageSizeMigration } from './0041-upstream-page-size';
import { reconciliationsMigration } from './0042-reconciliations';
import { historyOrderIndexesMigration } from './0043-history-order-indexes';
import { personLocaleMigration } from './0044-person-locale';

export function migrationsFor(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(dialect),
    '0002-call-class': callClassMigration,
    '0003-leases': leasesMigration(dialect),
    '0004-governor-waiters': governorWaitersMigration(dialect),
    '0005-sign-in-attempts': signInAttemptsMigration(dialect),
    '0006-history': historyMigration(dialect),
    '0010-insights': insightsMigration(dialect),
    '0011-history-bodies': historyBodiesMigration(dialect),
    '0012-record-pages': recordPagesMigration,
    '0013-text-index-by-transaction': textIndexByTransactionMigration(dialect),
    '0014-day-packs': dayPacksMigration(dialect),
    '0015-text-index-vocabulary': textIndexVocabularyMigration(dialect),
    '0016-history-data-apart': historyDataApartMigration(dialect),
    '0017-text-index-when-idle': textIndexWhenIdleMigration(dialect),
    '0018-export-owner': exportOwnerMigration,
    '0019-cache-page-index': cachePageIndexMigration,
    '0020-sign-in-known-addresses': signInKnownAddressesMigration(dialect),
    '0021-search-text-without-ciphertext': searchTextWithoutCiphertextMigration(dialect),
    '0022-ended-sessions': endedSessionsMigration(dialect),
    '0023-export-rows-by-time': exportRowsByTimeMigration(dialect),
    '0024-team': teamMigration(dialect),
    '0040-history-compact': historyCompactMigration(dialect),
    '0041-upstream-page-size': upstreamPageSizeMigration(dialect),
    '0042-reconciliations': reconciliationsMigration(dialect),
    '0043-history-order-indexes': historyOrderIndexesMigration(dialect),
    '0044-person-locale': personLocaleMigration,
  };
}
