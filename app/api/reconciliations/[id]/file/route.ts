/**
 * GET /api/reconciliations/<id>/file[?excel=true&tz=JST]: the answered list as CSV (the uploaded
 * columns, then the answer's), streamed a batch of rows at a time, named after the upload.
 */
import { Readable } from 'node:stream';
import type { NextRequest } from 'next/server';
import { asciiFileName } from '@/lib/csv/file-name';
import { badRequest } from '@/lib/http/problem';
import { otherMethodsRefused } from '@/lib/http/methods';
import { readFileQuery } from '@/lib/reconcile/server';
import { withAccount } from '@/lib/root/with-account';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ id: string }> };

export const GET = withAccount<Context>(async (req: NextRequest, account, { reconciliations }, context) => {
  const { id } = await context.params;
  const query = readFileQuery(req.nextUrl.searchParams);
  if (!query.ok) throw badRequest(query.errors);
  const file = await reconciliations.file(account, id, query.value);
  return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      // RFC 6266: the whole name (Japanese included) in filename*, an ASCII one for older clients.
      'Content-Disposition': `attachment; filename="${asciiFileName(file.fileName)}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    },
  });
});

/** What this endpoint does not take: 405 with Allow (lib/http/methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsRefused(['GET']);
