import { describe, expect, it } from 'vitest';
import {
  answerHref,
  channelLabel,
  endedText,
  formatBytes,
  formatPhone,
  formatTime,
  mailtoHref,
  productLabel,
  shortHash,
  sourceLabel,
  spamReason,
  statusLabel,
  telHref,
} from './format';

describe('the inbox labels', () => {
  it("shows the quote form's product labels and falls back to the stored value", () => {
    expect(productLabel('individual')).toBe('Individual Health');
    expect(productLabel('dental')).toBe('dental');
  });

  it('names sources and statuses for people', () => {
    expect([sourceLabel('web'), sourceLabel('voice'), sourceLabel('chat')]).toEqual([
      'Web form',
      'Voice call',
      'Chat',
    ]);
    expect([statusLabel('new'), statusLabel('contacted'), statusLabel('spam')]).toEqual([
      'New',
      'Contacted',
      'Spam',
    ]);
    expect(spamReason('too_fast')).toMatch(/sooner after the page loaded/);
    expect(spamReason('something new')).toBe('held as spam');
  });

  it('answers by e-mail with a subject naming the product and the broker', () => {
    expect(answerHref({ email: 'ana@example.com', product: 'family' })).toBe(
      'mailto:ana@example.com?subject=Your%20Family%20Health%20quote%20from%20Clearharbor%20Health',
    );
  });

  it("says how a call ended in words, the server's first", () => {
    expect(
      endedText({ call_ended: 'The caller hung up', call_ended_reason: 'customer-ended-call' }),
    ).toBe('The caller hung up');
    expect(endedText({ call_ended: null, call_ended_reason: 'assistant-forwarded-call' })).toBe(
      'Assistant forwarded call',
    );
    expect(endedText({ call_ended: null, call_ended_reason: null })).toBe(
      'No end-of-call report yet',
    );
  });

  it("names a conversation's channel", () => {
    expect([channelLabel('voice'), channelLabel('chat')]).toEqual(['Call', 'Chat']);
  });

  it('shows a size as a file manager does, and a SHA-256 by its first digits', () => {
    expect([formatBytes(1), formatBytes(999), formatBytes(44_100)]).toEqual([
      '1 byte',
      '999 bytes',
      '44.1 KB',
    ]);
    expect([formatBytes(1_234_567), formatBytes(2_000_000_000)]).toEqual(['1.2 MB', '2 GB']);
    expect(shortHash('9b2cf5358a1e8e3c0d52a1f4bb0c6e1f3a7d9e2b4c6f8a0b1c3d5e7f9a1b3c5d')).toBe(
      '9b2cf5358a1e…',
    );
    expect(shortHash('9b2c')).toBe('9b2c');
  });

  it('shows a time in the reader’s zone, and an unreadable one as it is', () => {
    expect(formatTime('2026-11-22T15:40:00.123Z')).toMatch(/2026/);
    expect(formatTime('yesterday')).toBe('yesterday');
    expect(formatTime(null)).toBe('');
  });
});

describe('the "Answer by e-mail" link', () => {
  it('keeps a plain address as it is', () => {
    expect(mailtoHref('ana.lopez+quotes@gmail.com')).toBe('mailto:ana.lopez%2Bquotes@gmail.com');
    expect(mailtoHref('voice.lead@example.com')).toBe('mailto:voice.lead@example.com');
  });

  it('cannot be turned into extra recipients or headers by the address', () => {
    const href = mailtoHref('ana%40victim.example?bcc=spy%40evil.example&x=@example.com');
    expect(href).toBe(
      'mailto:ana%2540victim.example%3Fbcc%3Dspy%2540evil.example%26x%3D@example.com',
    );
    const url = new URL(href);
    expect(url.search).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe(
      'ana%40victim.example?bcc=spy%40evil.example&x=@example.com',
    );
    expect(mailtoHref('a,b#c@example.com')).toBe('mailto:a%2Cb%23c@example.com');
  });
});

describe("a lead's phone number", () => {
  it('reads as people write a US number, and dials exactly the stored one', () => {
    expect(formatPhone('+15555550123')).toBe('(555) 555-0123');
    expect(telHref('+15555550123')).toBe('tel:+15555550123');
  });

  it('shows anything else as it is, and lets nothing but digits and + into the link', () => {
    expect(formatPhone('+442071838750')).toBe('+442071838750');
    expect(telHref('+1 555?x=1#a')).toBe('tel:+15551');
  });

  it('names the do-not-contact status', () => {
    expect(statusLabel('do_not_contact')).toBe('Do not contact');
  });
});
