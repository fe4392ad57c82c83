/**
 * The shape of a catalogue, taken from the English files (the ja ones must match: catalogue.ts is
 * typed with it and catalogue.test.ts checks both ways). Types only: importing this costs no bytes.
 * next-intl reads it too (global.d.ts), so `useTranslations('shell')('nav.transactions')` is checked
 * by the type checker, and so is every Message key (message.ts).
 */
import type cdr from '../../messages/en/cdr.json';
import type common from '../../messages/en/common.json';
import type history from '../../messages/en/history.json';
import type insights from '../../messages/en/insights.json';
import type pages from '../../messages/en/pages.json';
import type problems from '../../messages/en/problems.json';
import type quota from '../../messages/en/quota.json';
import type reconcile from '../../messages/en/reconcile.json';
import type shell from '../../messages/en/shell.json';
import type signin from '../../messages/en/signin.json';
import type team from '../../messages/en/team.json';
import type fields from '../../messages/en/fields.json';
import type query from '../../messages/en/query.json';
import type lookup from '../../messages/en/lookup.json';
import type search from '../../messages/en/search.json';
import type detail from '../../messages/en/detail.json';
import type exports from '../../messages/en/exports.json';
import type network from '../../messages/en/network.json';
import type store from '../../messages/en/store.json';

export interface Messages {
  cdr: typeof cdr;
  common: typeof common;
  history: typeof history;
  insights: typeof insights;
  pages: typeof pages;
  problems: typeof problems;
  quota: typeof quota;
  reconcile: typeof reconcile;
  shell: typeof shell;
  signin: typeof signin;
  team: typeof team;
  store: typeof store;
  network: typeof network;
  exports: typeof exports;
  detail: typeof detail;
  search: typeof search;
  lookup: typeof lookup;
  query: typeof query;
  fields: typeof fields;
}

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every message's full key, `namespace.path.to.message`. */
export type MessageKey = Leaves<Messages>;
