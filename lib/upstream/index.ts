import 'server-only';
export { CredentialsRefusedError, UpstreamError, isRetryable, kindForStatus, type UpstreamErrorKind } from './errors';
export {
  createUpstreamClient,
  DEFAULT_TIMEOUT_MS,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamToken,
} from './client';
export { createTokenKeeper, DEFAULT_RENEW_BEFORE_MS, type TokenKeeper, type TokenKeeperOptions } from './token-keeper';
export { parseRetryAfter } from './retry-after';
