import 'server-only';
/**
 * A job or an estimate as the API answers it: its words for a person (a job's message and
 * warnings, an estimate's summary and warnings, kept as Words by key) said in the request's
 * language; every machine-read member as it is. A job stored before its words had keys holds
 * English text, answered as it is.
 */
import type { Locale } from '../i18n/locales';
import { translate } from '../i18n/translate';
import type { ExportEstimate, ExportJob } from './api';

export function jobSaid(job: ExportJob, locale: Locale): ExportJob {
  return {
    ...job,
    message: job.message === null ? null : translate(locale, job.message),
    warnings: job.warnings.map((w) => translate(locale, w)),
  };
}

export function estimateSaid(estimate: ExportEstimate, locale: Locale): ExportEstimate {
  return {
    ...estimate,
    summary: translate(locale, estimate.summary),
    warnings: estimate.warnings.map((w) => translate(locale, w)),
  };
}
