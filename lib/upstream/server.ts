import 'server-only';
/**
 * What other features and the composition root may use of upstream on the server. Everything else in this folder is its own.
 */
export { CredentialsRefusedError, UpstreamError, isRetryable, type UpstreamErrorKind } from './errors';
export { UpstreamGateway, callsSpentBy, createGateway, type QueryClass, type UpstreamAccount } from './gateway';
export { upstreamProblem } from './problems';
