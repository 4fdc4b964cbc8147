/**
 * A recording's address at the voice provider, as the inbox may link it: only an absolute
 * `https:` URL. The address comes from the provider's webhook, and whoever can post one chooses
 * it: a site-relative link would open the site's own pages (or its API) with the broker's
 * session, a `javascript:` one would run in the inbox, and plain `http:` is no provider's.
 */
export function providerLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    // Without a base, only an absolute URL parses.
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
