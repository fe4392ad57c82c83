/**
 * `instanceof` that works across copies of a module. Next.js bundles every route on its own, so one
 * server process can hold several copies of a class; the process-wide services (governor, gateway)
 * throw errors built by one copy that another route's copy must recognise. A class branded here
 * answers `instanceof` by a registry symbol instead of by prototype identity.
 */
export function brandCheck(name: string): { brand: symbol; hasInstance: (value: unknown) => boolean } {
  const brand = Symbol.for(`sms-dashboard/${name}`);
  return {
    brand,
    hasInstance: (value: unknown) =>
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  };
}
