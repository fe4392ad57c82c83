import 'server-only';
/**
 * What an upstream page's failure means for the job: a sign-in needed (the secret no longer opens,
 * or the upstream refused it), quota to wait for (the governor's estimate, or the upstream's own
 * hold), a fault to try again later (30 s, 1, 2, 4 … minutes, up to MAX_FAILURES times), or a
 * refusal the export cannot get past.
 */
import { QuotaExceededError } from '../governor/server';
import { callsSpentBy, isRetryable, UpstreamError } from '../upstream/server';
import { backoffMs, MAX_FAILURES } from '../background';
import { msg } from '../i18n/message';
import type { ExportJobRecord } from './job-row';
import { SignInNeededError } from './job-account';
import { at, fail, save, wait } from './job-state';
import { MAX_PAGE } from '../query/query';
import { pagesFor, reachableRecords } from '../query/ranges';
import type { StepDeps, StepOutcome } from './step-deps';

export async function handleError(deps: StepDeps, job: ExportJobRecord, err: unknown): Promise<StepOutcome> {
  const now = deps.now();
  if (err instanceof SignInNeededError) {
    // This session's secret is of no use: only a session signed in from now on can help.
    job.signInNeededSince = now;
    return wait(deps, job, null, err.words);
  }
  if (err instanceof QuotaExceededError) {
    // The upstream's own hold (a 429's Retry-After) is kept as it is; the governor's guess is asked again.
    return wait(
      deps,
      job,
      err.nextCallAt,
      msg('exports.job.quota', { reason: err.words }),
      err.limitedBy === 'upstream' ? undefined : 'quota',
    );
  }
  if (err instanceof UpstreamError) {
    // The calls sent count against the windows even though they failed (none when the token
    // could not be had).
    job.callsSpent += callsSpentBy(err);
    if (err.kind === 'unauthorized') {
      job.signInNeededSince = now;
      return wait(deps, job, null, msg('exports.job.refusedCredentials'));
    }
    if (isRetryable(err) || err.kind === 'malformed') {
      const failures = job.failures + 1;
      if (failures > MAX_FAILURES) {
        return fail(deps, job, msg('exports.job.failedTooOften', { failures, kind: err.kind.replace('_', ' ') }));
      }
      const until = now + Math.max(backoffMs(failures), err.retryAfterMs ?? 0);
      job.failures = failures;
      deps.log.info('export.retry', { job: job.id, account: job.account, error: err.kind, failures });
      return wait(
        deps,
        job,
        until,
        msg('exports.job.retrying', {
          kind: err.kind.replace('_', ' '),
          at: at(until, job),
          attempt: failures + 1,
          attempts: MAX_FAILURES + 1,
        }),
      );
    }
    // The upstream refused the job's page size (one it served before, or larger than it serves):
    // read on at the fallback, from the record the job stopped at.
    const size = await deps.pageSizes?.refused(job.pageSize, err.status);
    if (size !== undefined && size !== null) {
      const was = job.pageSize;
      resizeJob(job, size);
      job.warnings.push(msg('exports.warning.pageSizeRefused', { was, status: String(err.status), size }));
      deps.log.warn('export.page_size_refused', { job: job.id, account: job.account, asked: was, size });
      await save(deps, job, {});
      return { next: 'continue' };
    }
    return fail(
      deps,
      job,
      msg('exports.job.refusedQuery', {
        status: String(err.status ?? err.kind),
        said: err.upstreamMessage ? msg('exports.job.upstreamSaid', { message: err.upstreamMessage }) : '',
      }),
    );
  }
  deps.log.error('export.unexpected', {
    job: job.id,
    account: job.account,
    error: err instanceof Error ? err.message : String(err),
  });
  return fail(deps, job, msg('exports.job.unexpected'));
}

/**
 * Counts a job's windows at page size `size` from now on: the pages read so far are those their
 * records fill (a page read in part is read again; its records are kept once), none already read
 * is asked for twice. A window deeper than the upstream reaches at the new size is read afresh.
 */
export function resizeJob(job: ExportJobRecord, size: number): void {
  job.pageSize = size;
  for (const w of job.windows) {
    if (w.state !== 'pending' || w.local || w.totalFound === null) continue;
    if (w.totalFound > reachableRecords(size)) {
      Object.assign(w, { totalFound: null, pagesDone: 0, pagesTotal: null, received: 0 });
      continue;
    }
    w.pagesDone = Math.floor(w.received / size);
    w.received = w.pagesDone * size;
    w.pagesTotal = Math.max(1, pagesFor(w.totalFound, size, MAX_PAGE));
  }
}
