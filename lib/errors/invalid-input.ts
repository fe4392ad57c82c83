import { brandCheck } from './brand';
import { isMessage, type Words } from '../i18n/message';
/**
 * Input a feature refuses for what it says, found where only the feature can judge it (an export's
 * range that has not begun by the time the job would be made): each broken rule by parameter, as
 * the query's parser names them. A domain error, not an HTTP one: the route wrapper answers it as a
 * 400 (lib/root/error-problems.ts), and nothing was spent.
 */
const INVALID_INPUT_BRAND = brandCheck('InvalidInputError');

export class InvalidInputError extends Error {
  /** Recognised across bundled copies of this module (./brand.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return INVALID_INPUT_BRAND.hasInstance(value);
  }
  readonly [INVALID_INPUT_BRAND.brand] = true;

  /** `errors`: Words by parameter, said in the reader's language by the 400 (its Error message: their keys). */
  constructor(readonly errors: Readonly<Record<string, Words>>) {
    super(
      Object.values(errors)
        .map((w) => (isMessage(w) ? w.key : w))
        .join(' '),
    );
    this.name = 'InvalidInputError';
  }
}
