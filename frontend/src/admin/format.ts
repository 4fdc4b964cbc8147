import { productOptions } from '../content';

export function productLabel(value: string): string {
  return productOptions.find((option) => option.value === value)?.label ?? value;
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A stored RFC 3339 time in the reader's own time zone. */
export function formatTime(rfc3339: string | null | undefined): string {
  if (!rfc3339) return '';
  const date = new Date(rfc3339);
  return Number.isNaN(date.getTime()) ? rfc3339 : when.format(date);
}

export const sourceLabel = (source: string) => (source === 'voice' ? 'Voice call' : 'Web form');
export const statusLabel = (status: string) => (status === 'contacted' ? 'Contacted' : 'New');

/**
 * A `mailto:` link that writes to exactly this address. An accepted address may hold `?`, `&`,
 * `%`, `,` or `#` in its local part, which a mail client would read as extra recipients or
 * headers (a hidden Bcc), so each side of the last `@` is percent-encoded (RFC 6068).
 */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(address)}`;
  const local = encodeURIComponent(address.slice(0, at));
  const domain = encodeURIComponent(address.slice(at + 1));
  return `mailto:${local}@${domain}`;
}
