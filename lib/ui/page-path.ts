/** A page's path with its query, for the sign-in redirect to bring the person back to the same view. */
export function pathWithQuery(pathname: string, searchParams: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, v);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** The first value of a search parameter as Next hands it to a page. */
export function firstParam(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
