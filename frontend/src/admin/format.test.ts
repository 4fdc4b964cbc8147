import { describe, expect, it } from 'vitest';
import { formatTime, productLabel, sourceLabel, spamReason, statusLabel } from './format';

describe('the inbox labels', () => {
  it("shows the quote form's product labels and falls back to the stored value", () => {
    expect(productLabel('individual')).toBe('Individual Health');
    expect(productLabel('dental')).toBe('dental');
  });

  it('names sources and statuses for people', () => {
    expect([sourceLabel('web'), sourceLabel('voice')]).toEqual(['Web form', 'Voice call']);
    expect([statusLabel('new'), statusLabel('contacted'), statusLabel('spam')]).toEqual([
      'New',
      'Contacted',
      'Spam',
    ]);
    expect(spamReason('too_fast')).toMatch(/sooner after the page loaded/);
    expect(spamReason('something new')).toBe('held as spam');
  });

  it('shows a time in the reader’s zone, and an unreadable one as it is', () => {
    expect(formatTime('2026-11-22T15:40:00.123Z')).toMatch(/2026/);
    expect(formatTime('yesterday')).toBe('yesterday');
    expect(formatTime(null)).toBe('');
  });
});
