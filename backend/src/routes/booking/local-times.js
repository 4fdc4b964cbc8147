// The booking page's times on the visitor's own clock (docs/product.md §13). Without JavaScript
// each time is labelled on the broker's clock, the page naming that zone; this relabels each one
// (`data-at`, its RFC 3339 instant, which stays the radio button's value) in the zone the browser
// is in, and says which zone that is. Served from the site (`/book/local-times.js`), as the
// Content-Security-Policy's script-src 'self' allows; the page's own HTML carries no script.
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const said = document.getElementById('booking-zone');
  if (!zone || !said) return;
  const format = new Intl.DateTimeFormat(document.documentElement.lang === 'es' ? 'es' : 'en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  });
  for (const label of document.querySelectorAll('[data-at]')) {
    const at = new Date(label.dataset.at);
    if (!Number.isNaN(at.getTime())) label.textContent = format.format(at);
  }
  said.textContent = said.dataset.yourZone.replace('{zone}', zone);
})();
