import { brand, productOptions } from '../../content';
import type { Lead } from '../api/api';

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

const size = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A file's size the way a file manager shows it (1 KB = 1,000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const [value, unit] =
    bytes < 1e6 ? [bytes / 1e3, 'KB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  return `${size.format(value)} ${unit}`;
}

/** A SHA-256's first twelve hex digits: enough to tell two files apart at a glance. */
export const shortHash = (sha256: string) =>
  sha256.length > 12 ? `${sha256.slice(0, 12)}…` : sha256;

/**
 * A stored US number (E.164, `+15555550123`) as people read it: `(555) 555-0123`. Anything else
 * (a number from outside the plan) is shown as it is.
 */
export function formatPhone(e164: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : e164;
}

/** A `tel:` link to the stored number: its `+` and digits only, so nothing else reaches a dialer. */
export const telHref = (e164: string) => `tel:${e164.replace(/[^+\d]/g, '')}`;

/** "Answer by e-mail": a new message to the lead whose subject names the product and the broker. */
export function answerHref(lead: Pick<Lead, 'email' | 'product'>): string {
  const subject = `Your ${productLabel(lead.product)} quote from ${brand.name}`;
  return `${mailtoHref(lead.email)}?subject=${encodeURIComponent(subject)}`;
}

/** How the call ended, in words: the server's, else the provider's code made readable. */
export function endedText(lead: Pick<Lead, 'call_ended' | 'call_ended_reason'>): string {
  if (lead.call_ended) return lead.call_ended;
  if (!lead.call_ended_reason) return 'No end-of-call report yet';
  const words = lead.call_ended_reason.replace(/[-_.]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Unknown';
}

const LANGUAGE_LABELS: Record<string, string> = { en: 'English', es: 'Spanish' };
/** The language of the lead's page, the one to answer in. */
export const languageLabel = (language: string) => LANGUAGE_LABELS[language] ?? 'English';
const SOURCE_LABELS: Record<string, string> = {
  web: 'Web form',
  voice: 'Voice call',
  chat: 'Chat',
};
export const sourceLabel = (source: string) => SOURCE_LABELS[source] ?? 'Web form';
const CHANNEL_LABELS: Record<string, string> = { voice: 'Call', chat: 'Chat' };
/** A conversation's channel: a call, or a chat on the site. */
export const channelLabel = (channel: string) => CHANNEL_LABELS[channel] ?? 'Call';
const STATUS_LABELS: Record<string, string> = {
  new: 'New',
  contacted: 'Contacted',
  spam: 'Spam',
  do_not_contact: 'Do not contact',
};
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? 'New';

const SPAM_REASONS: Record<string, string> = {
  honeypot: 'the hidden field people never see was filled in',
  no_token: 'it did not come from a page of this site (or the browser kept no cookie)',
  bad_token: 'it carried a form token this site did not sign',
  expired_token: 'the page it came from was served more than six hours before',
  too_fast: 'it was sent sooner after the page loaded than a person fills the form in',
  reused_token: 'another lead was sent with the same page view (a token serves one lead)',
  marked: 'you marked it as spam',
};
/** Why a lead is held as spam, in words. */
export const spamReason = (reason: string | null | undefined) =>
  (reason && SPAM_REASONS[reason]) ?? 'held as spam';
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

const CONSENT_CHANNELS: Record<string, string> = {
  form: 'The quote form',
  form_without_script: 'The quote form (without JavaScript)',
  voice: 'A call with the assistant',
  chat: 'A chat with the assistant',
};
/** How a lead was sent, as its consent record says. */
export const consentChannelLabel = (channel: string) => CONSENT_CHANNELS[channel] ?? channel;
