import { describe, expect, it } from 'vitest';
import { providerLink } from './provider-link';

describe("the provider's recording link", () => {
  it('is an absolute https URL as given', () => {
    const url = 'https://storage.vapi.ai/0199da1a-mono.wav';
    expect(providerLink(url)).toBe(url);
    expect(providerLink('HTTPS://storage.vapi.ai/a.wav')).toBe('HTTPS://storage.vapi.ai/a.wav');
  });

  it('is nothing for a site-relative, script, plain http or other address', () => {
    for (const url of [
      '/api/admin/quote-requests',
      '//evil.example/a.wav',
      'api/admin/conversations/x/recording',
      'javascript:fetch("/api/admin/quote-requests")',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://storage.vapi.ai/a.wav',
      'ftp://storage.vapi.ai/a.wav',
      '',
      null,
      undefined,
    ]) {
      expect(providerLink(url), String(url)).toBeNull();
    }
  });
});
