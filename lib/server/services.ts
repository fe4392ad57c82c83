import 'server-only';
/** Process-wide services, built on first use (never during `next build`). */
import { getConfig } from '../config';
import { getStore } from '../store';
import { TransactionsService } from './transactions-service';
import { getGateway } from './upstream-gateway';

const globalForServices = globalThis as unknown as { __smsDashboardTransactions?: TransactionsService };

export function getTransactionsService(): TransactionsService {
  globalForServices.__smsDashboardTransactions ??= new TransactionsService(getGateway(), getStore().cache, getConfig());
  return globalForServices.__smsDashboardTransactions;
}
