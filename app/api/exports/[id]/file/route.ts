/**
 * GET /api/exports/<id>/file: the finished CSV, streamed from the store a chunk at a time (memory
 * does not grow with the file), named for what is in it. 409 while the job is not done; 404 for another account's job.
 */
import { Readable } from 'node:stream';
import { attachmentDisposition } from '@/lib/http/content-disposition';
import { CONTENT_LENGTH_HEADER } from '@/lib/http/content-length';
import { msg } from '@/lib/i18n/message';
import { withAccount } from '@/lib/root/with-account';
import { otherMethodsRefused } from '@/lib/http/methods';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context>(
  async (_req, account, { exports, team }, context) => {
    const { id } = await context.params;
    const file = await exports.file(team.exportAccount(account), id);
    const body = Readable.toWeb(file.stream) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        // Next.js drops Content-Length itself; this one reaches the browser as it (lib/http/content-length.ts).
        [CONTENT_LENGTH_HEADER]: String(file.bytes),
        // The whole name (Japanese free text included) in filename*, an ASCII one in filename.
        'Content-Disposition': attachmentDisposition(file.fileName),
      },
    });
  },
  { role: { least: 'support', what: msg('team.problems.roleNeeded.whatExport') } },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
