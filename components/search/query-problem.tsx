'use client';
/**
 * What went wrong with a request and what to do about it. A 429 is waited out with a live
 * countdown and retried automatically; an upstream fault offers a retry; a lost session, sign-in.
 */
import { usePathname, useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useFormat } from '@/lib/i18n/use-format';
import { CREDENTIALS_REFUSED_PROBLEM } from '@/lib/auth';
import { UPSTREAM_UNAUTHORIZED_PROBLEM } from '@/lib/upstream';
import { ApiError, retryAt } from '@/lib/http/api-client';
import { signInHref } from '@/lib/http/paths';
import { Countdown } from '../common/countdown';
import type { ReactNode } from 'react';
import styles from './result-states.module.css';

export interface QueryProblemProps {
  error: Error;
  /** Asks again (the automatic retry after a 429, or the Retry button). */
  onRetry: () => void;
  /** What was asked for, said in the messages. */
  subject: 'search' | 'transaction';
  /** The level of its heading in the page's outline (3 under a results section, 2 under a page's title). */
  headingLevel?: 2 | 3;
}

export function QueryProblem({ error, onRetry, subject, headingLevel = 3 }: QueryProblemProps) {
  const t = useTranslations('search.problem');
  const f = useFormat();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  // The time to wait is fixed when the error arrives, not recomputed on every render.
  const [waitUntil] = useState(() =>
    error instanceof ApiError && error.status === 429 ? retryAt(error, Date.now()) : null,
  );

  if (!(error instanceof ApiError)) {
    return (
      <Problem level={headingLevel} tone="danger" title={t('wrong')} detail={error.message}>
        <button type="button" className="button" onClick={onRetry}>
          {t('retry')}
        </button>
      </Problem>
    );
  }
  const { problem } = error;

  if (problem.status === 429) {
    return (
      <Problem
        level={headingLevel}
        tone="warning"
        testId="quota-wait-problem"
        title={
          <>
            {waitUntil !== null ? t('waitingFor') : t('waiting')}
            {waitUntil !== null ? <Countdown until={waitUntil} onDone={onRetry} /> : null}
          </>
        }
        // The reason without its "in 45 s", which would stand still beside the live countdown.
        detail={`${waitUntil !== null && problem.reason ? t('reason', { reason: problem.reason }) : (problem.detail ?? t('noCallYet'))} ${t('runsAgain', { subject })}`}
      />
    );
  }

  if (problem.status === 401) {
    const back = `${pathname}${searchParams.size ? `?${searchParams.toString()}` : ''}`;
    if (problem.type === UPSTREAM_UNAUTHORIZED_PROBLEM) {
      // The upstream refused the query, not our session: asking again is safe (one call).
      return (
        <Problem level={headingLevel} tone="danger" title={problem.title} detail={problem.detail}>
          <button type="button" className="button" onClick={onRetry} data-testid="retry">
            {t('retry')}
          </button>
          <a className="button" href={signInHref(back)}>
            {t('signInAgain')}
          </a>
        </Problem>
      );
    }
    if (problem.type === CREDENTIALS_REFUSED_PROBLEM) {
      // Every session of the key ended: say why, and let the sign-in page say it again.
      return (
        <Problem
          level={headingLevel}
          tone="danger"
          testId="credentials-refused"
          title={problem.title}
          detail={problem.detail}
        >
          <a className="button button-primary" href={signInHref(back, 'CredentialsRefused')}>
            {t('signInCurrent')}
          </a>
        </Problem>
      );
    }
    return (
      <Problem level={headingLevel} tone="warning" title={t('sessionEnded')} detail={t('sessionEndedText')}>
        <a className="button button-primary" href={signInHref(back)}>
          {t('signInAgain')}
        </a>
      </Problem>
    );
  }

  if (problem.status === 400) {
    return (
      <Problem level={headingLevel} tone="danger" title={problem.title} detail={problem.detail}>
        {problem.errors ? (
          <ul className={styles.errors}>
            {Object.entries(problem.errors).map(([param, message]) => (
              <li key={param}>
                <code>{param}</code>: {message}
              </li>
            ))}
          </ul>
        ) : null}
      </Problem>
    );
  }

  if (problem.status === 404) {
    return <Problem level={headingLevel} tone="neutral" title={t('noSuch', { subject })} detail={problem.detail} />;
  }

  // The problem's own title says what went wrong upstream (unavailable, no answer in time, an answer
  // that could not be read): nothing to add to it.
  return (
    <Problem level={headingLevel} tone="danger" title={problem.title} detail={problem.detail ?? t('tryAgain')}>
      <button type="button" className="button" onClick={onRetry} data-testid="retry">
        {t('retry')}
      </button>
      {problem.retryAfterSeconds ? (
        <span className={styles.hint}>{t('bestIn', { wait: f.wait(problem.retryAfterSeconds) })}</span>
      ) : null}
    </Problem>
  );
}

function Problem({
  tone,
  title,
  detail,
  children,
  testId,
  level,
}: {
  level: 2 | 3;
  tone: 'danger' | 'warning' | 'neutral';
  title: ReactNode;
  detail?: string;
  children?: ReactNode;
  testId?: string;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div
      className={styles.problem}
      data-tone={tone}
      role={tone === 'neutral' ? 'status' : 'alert'}
      data-testid={testId ?? 'query-problem'}
    >
      <Heading className={styles.problemTitle}>{title}</Heading>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      {children ? <div className={styles.problemActions}>{children}</div> : null}
    </div>
  );
}
