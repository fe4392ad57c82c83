/** A transaction id is 32 hexadecimal characters (seed §2.2). Shared by the lookup box and the server. */
export const TRX_ID_PATTERN = /^[0-9a-f]{32}$/i;

/** Says what is wrong with a would-be trx_id, or null when it is fine. */
export function trxIdProblem(input: string): string | null {
  const value = input.trim();
  if (value === '') return 'Enter a transaction ID.';
  if (/[^0-9a-f]/i.test(value)) return 'A transaction ID has only the characters 0-9 and a-f.';
  if (value.length !== 32) return `A transaction ID has 32 characters; this one has ${value.length}.`;
  return null;
}
