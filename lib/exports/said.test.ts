/**
 * An export's words for a person follow the request's language when the API answers them; a job
 * stored before its words had keys keeps its English text; nothing machine-read changes.
 */
import { describe, expect, it } from 'vitest';
import { msg } from '../i18n/message';
import type { ExportJob } from './api';
import { jobSaid } from './said';

const job = {
  id: 'j',
  state: 'waiting',
  message: msg('exports.job.refusedCredentials'),
  warnings: [msg('exports.warning.duplicates', { count: 1234 }), 'An old job’s warning, in English.'],
} as unknown as ExportJob;

describe('an export as the API answers it', () => {
  it('says its message and warnings in the request’s language', () => {
    expect(jobSaid(job, 'en')).toMatchObject({
      id: 'j',
      state: 'waiting',
      message: 'The Report API refused the stored credentials: sign in again to continue.',
      warnings: [
        '1,234 records came more than once (window boundaries or pages that shifted) and are written once.',
        'An old job’s warning, in English.',
      ],
    });
    expect(jobSaid(job, 'ja')).toMatchObject({
      message: 'Report APIが保存済みの認証情報を拒否しました。続けるには再ログインしてください。',
      warnings: [
        expect.stringMatching(/^1,234件のレコードを複数回受け取りました/),
        'An old job’s warning, in English.',
      ],
    });
  });
});
