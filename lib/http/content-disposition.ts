/**
 * The Content-Disposition of a download (RFC 6266), for every file the dashboard sends: the whole
 * name, Japanese included, in `filename*` (RFC 8187: UTF-8, percent-encoded), which browsers read;
 * beside it a `filename` in printable ASCII for clients that read only that. A name outside
 * ISO-8859-1 written raw into a header makes the Response constructor throw (the page CSV answered
 * 500 for `client-reference=注文`, after spending its call).
 */

/** The name with every character outside printable ASCII, and `"` and `\`, as `_`. */
export function asciiFileName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
}

/** RFC 8187's value-chars: what encodeURIComponent leaves but `attr-char` does not allow is encoded too. */
function extValue(name: string): string {
  return encodeURIComponent(name.normalize('NFC')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${extValue(fileName)}`;
}
