/**
 * Says what is wrong with a would-be trx_id (32 hexadecimal characters, seed §2.2), or null when it
 * is fine. Shared by the lookup box, the transaction page and the server.
 */
export function trxIdProblem(input: string): string | null {
  const value = input.trim();
  if (value === '') return 'Enter a transaction ID.';
  if (/[^0-9a-f]/i.test(value)) return 'A transaction ID has only the characters 0-9 and a-f.';
  if (value.length !== 32) return `A transaction ID has 32 characters; this one has ${value.length}.`;
  return null;
}
