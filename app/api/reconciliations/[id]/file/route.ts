/**
 * GET /api/reconciliations/<id>/file[?excel=true&tz=JST]: the answered list as CSV (the uploaded
 * columns, then the answer's, its words in the request's language), streamed a batch of rows at a
 * time, named after the upload. The parameters are read and checked before the handler runs
 * (lib/reconcile/route-readers.ts).
 */
import { Readable } from 'node:stream';
import { attachmentDisposition } from '@/lib/http/content-disposition';
import { otherMethodsRefused } from '@/lib/http/methods';
import { localeOfRequest } from '@/lib/i18n/request-locale';
import { RECONCILE_ROLE, fileQueryOf, type FileQuery } from '@/lib/reconcile/server';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context, FileQuery>(
  async (req, account, { reconciliations, present }, context, query) => {
    const { id } = await context.params;
    const masked = present(account).masked;
    const file = await reconciliations.file(account, id, query, localeOfRequest(req, account), masked);
    return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        // RFC 6266: the whole name (Japanese included) in filename*, an ASCII one for older clients.
        'Content-Disposition': attachmentDisposition(file.fileName),
      },
    });
  },
  { query: fileQueryOf, role: RECONCILE_ROLE },
);

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
