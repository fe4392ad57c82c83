import 'server-only';
/**
 * What the composition root may use of lookup on the server. Everything else in this folder is its own.
 */
export { LookupService } from './lookup-service';
export { lookupRequest, type LookupRequest } from './lookup-request';
