/**
 * JSON of values that never change, written once. Their owner declares them with `keepJson` — a
 * presented record (lib/search/present.ts) is shared by every answer that shows it and never
 * changed — and from then on their JSON as UTF-8 bytes (what a body carries) and the bytes' digest
 * (what an ETag hashes) are kept beside them, weakly: they go when the value goes. Any other value
 * is written afresh each time.
 *
 * What is kept lives in this module, and Next.js bundles every route on its own, each with its own
 * copy of it: a value must be written by the same copy that declared it. Route handlers therefore
 * write pages through the process's services (`answers` in lib/root/services.ts), built with the
 * same copies as the transactions service that presents the records.
 *
 * Bytes rather than text: an answer is sent as bytes anyway, and one Japanese character makes a
 * record's text twice its size in memory. A declaration rather than Object.freeze, and a WeakMap
 * rather than a property on the record: either makes V8 keep a record of thirty-odd fields in a
 * form two to four times the size (measured).
 */
import { createHash } from 'node:crypto';

interface Kept {
  bytes?: Buffer;
  digest?: string;
}

const kept = new WeakMap<object, Kept>();

/** Declares that `value` will never change, so its JSON may be kept. */
export function keepJson(value: object): void {
  if (!kept.has(value)) kept.set(value, {});
}

/** `JSON.stringify(value)` as UTF-8, kept for a declared value. */
export function jsonBytes(value: object): Buffer {
  const entry = kept.get(value);
  if (!entry) return Buffer.from(JSON.stringify(value));
  return (entry.bytes ??= Buffer.from(JSON.stringify(value)));
}

/** A SHA-1 digest (base64url) of `jsonBytes(value)`, kept for a declared value. */
export function jsonDigest(value: object): string {
  const entry = kept.get(value);
  if (!entry) return sha1(jsonBytes(value));
  return (entry.digest ??= sha1(jsonBytes(value)));
}

function sha1(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('base64url');
}
