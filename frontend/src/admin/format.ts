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
const STATUS_LABELS: Record<string, string> = { new: 'New', contacted: 'Contacted', spam: 'Spam' };
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? 'New';

const SPAM_REASONS: Record<string, string> = {
  honeypot: 'the hidden field people never see was filled in',
  no_token: 'it did not come from a page of this site (or the browser kept no cookie)',
  bad_token: 'it carried a form token this site did not sign',
  expired_token: 'the page it came from was served more than two days before',
  too_fast: 'it was sent sooner after the page loaded than a person fills the form in',
  marked: 'you marked it as spam',
};
/** Why a lead is held as spam, in words. */
export const spamReason = (reason: string | null | undefined) =>
  (reason && SPAM_REASONS[reason]) ?? 'held as spam';
