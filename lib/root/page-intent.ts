import 'server-only';
/**
 * Whether the page being rendered was opened from another site (a link, a form or a redirect
 * there: the navigation's Sec-Fetch-Site), by the same rule as the API's cross-site refusal
 * (lib/http/request-intent.ts). Such a page fills itself from the URL but spends no upstream call
 * until the person asks: another site's link is not the person asking.
 */
import { headers } from 'next/headers';
import { crossSiteRefusal } from '../http/request-intent';

export async function openedFromAnotherSite(): Promise<boolean> {
  return crossSiteRefusal({ secFetchSite: (await headers()).get('sec-fetch-site'), origin: null }, []) !== null;
}
