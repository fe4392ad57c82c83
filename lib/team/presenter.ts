/**
 * The one place the role decides what leaves the server (design.md, "Who is signed in"): every
 * answer that carries records — a page of the table (JSON and its CSV), one record, Insights'
 * senders — passes a presenter made for the session's role. A role that sees personal data masked
 * gets every record through the one rule (./masking.ts) and `_meta.masked: true`; an admin (and a
 * personal session, the admin of its own account) gets them as they are. Export files take the
 * rule when their job is written (lib/exports/file-writer.ts), for the role of whoever asked.
 *
 * A masked record is made once per presented record and kept beside it, weakly, with its JSON
 * (lib/http/json-text.ts), as the presented record is: a cached page costs a masked reader what it
 * costs anyone. Build presenters through the process's services (they hold that module's copy).
 */
import type { Cdr } from '../cdr/schema';
import { keepJson } from '../http/json-text';
import { rolesMasked, type Role } from './api';
import { maskRecord, maskSender } from './masking';

const maskedCopies = new WeakMap<object, Cdr>();

function maskedOnce(cdr: Cdr): Cdr {
  let copy = maskedCopies.get(cdr);
  if (!copy) {
    copy = maskRecord(cdr);
    keepJson(copy);
    maskedCopies.set(cdr, copy);
  }
  return copy;
}

/** What a page of records looks like to the presenter: records and a `_meta` (lib/search's TransactionsPage). */
interface RecordsPage {
  _embedded: { cdrs: Cdr[] } & Record<string, unknown>;
  _meta: object;
}

export interface Presenter {
  readonly role: Role;
  /** Numbers masked and text hidden in everything this presenter gives. */
  readonly masked: boolean;
  record(cdr: Cdr): Cdr;
  /** A page with its records presented and `_meta.masked` said. */
  page<P extends RecordsPage>(page: P): P;
  /** `_meta` of an answer of one record. */
  meta<M extends object>(meta: M): M & { masked?: true };
  /** Insights' answer: a sender that is a number (a long code) masked in its breakdown. */
  insights<A extends { bySender: { from_address: string }[]; _meta: object }>(answer: A): A;
}

const ADMIN: Omit<Presenter, 'role'> = {
  masked: false,
  record: (cdr) => cdr,
  page: (page) => page,
  meta: (meta) => meta,
  insights: (answer) => answer,
};

const MASKED: Omit<Presenter, 'role'> = {
  masked: true,
  record: maskedOnce,
  page: (page) => ({
    ...page,
    _embedded: { ...page._embedded, cdrs: page._embedded.cdrs.map(maskedOnce) },
    _meta: { ...page._meta, masked: true },
  }),
  meta: (meta) => ({ ...meta, masked: true }),
  insights: (answer) => ({
    ...answer,
    bySender: answer.bySender.map((s) => ({ ...s, from_address: maskSender(s.from_address) })),
    _meta: { ...answer._meta, masked: true },
  }),
};

export function presenterFor(role: Role): Presenter {
  return { role, ...(rolesMasked(role) ? MASKED : ADMIN) };
}
