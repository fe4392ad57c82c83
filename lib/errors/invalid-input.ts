import { brandCheck } from './brand';
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

  constructor(readonly errors: Readonly<Record<string, string>>) {
    super(Object.values(errors).join(' '));
    this.name = 'InvalidInputError';
  }
}
