/**
 * Small HTTP helpers over node:http: JSON and error answers in the upstream's shape, the client's
 * address, the loopback check guarding the admin endpoints, header checks.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

/** What a Spring-style upstream writes; clients must not depend on the exact spelling. */
export const JSON_TYPE = 'application/json;charset=UTF-8';

export interface ErrorBody {
  status: number;
  error: string;
  message: string;
}

export function errorBody(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): ErrorBody & Record<string, unknown> {
  return { status, error: STATUS_CODES[status] ?? 'Error', message, ...extra };
}

/** A gateway's error page, for the `html` fault: clients must cope with error bodies that are not JSON. */
export function htmlErrorPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>gateway</center></body></html>\n`;
}

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, JSON.stringify(body), JSON_TYPE, headers);
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so one client is one key whichever socket family it came in on. */
export function normaliseAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function clientIp(req: IncomingMessage): string {
  return normaliseAddress(req.socket.remoteAddress);
}

/** The admin endpoints answer only to the machine itself: 127.0.0.0/8 and ::1. */
export function isLoopback(address: string | undefined): boolean {
  const a = normaliseAddress(address);
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Media types listed in an Accept or Content-Type header, lower-cased, parameters dropped. */
export function mediaTypes(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
}

/** `application/json; charset=UTF-8` in any spacing, quoting or case. */
export function isJsonUtf8(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.some((p) => /^charset\s*=\s*"?utf-8"?$/.test(p));
}

export function readBody(req: IncomingMessage, maxBytes = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
