/**
 * What the lookup says to a person: what is wrong with what they pasted (said before anything is
 * asked, so a typo never spends a call), and about an id it could not find — not visible to their
 * account (it may exist for another), and whether that is a recent answer given again without
 * asking the upstream.
 */

export function idEmptyText(): string {
  return 'Enter a transaction ID.';
}

export function idLettersText(): string {
  return 'A transaction ID has only the characters 0-9 and a-f (spaces and hyphens between them are fine).';
}

export function idLengthText(length: number): string {
  return `A transaction ID has 32 characters; this one has ${length}.`;
}

/** The upstream said it does not know the id, for this account. */
export function notVisibleText(trxId: string): string {
  return `No transaction ${trxId} is visible to your account.`;
}

/** The same answer, remembered from an upstream call of the last few minutes. */
export function notVisibleRecentlyText(trxId: string): string {
  return `No transaction ${trxId} is visible to your account (checked in the last few minutes).`;
}
