import { describe, expect, it } from 'vitest';
import { fetchVoiceConfig, parseVoiceConfig } from './client-config';

describe('client configuration', () => {
  it('reads the voice settings and treats blanks as absent', () => {
    expect(
      parseVoiceConfig({
        voice: {
          publicKey: 'pk',
          assistantId: 'a',
          apiBaseUrl: ' ',
          // What a server before 0.2.0 sent: the notice is the content's now, never the server's.
          consentText: 'Te atiende una IA.',
        },
      }),
    ).toEqual({ publicKey: 'pk', assistantId: 'a', apiBaseUrl: null });
    expect(
      parseVoiceConfig({ voice: { publicKey: 'pk', assistantId: 'a', apiBaseUrl: 'http://x:9' } }),
    ).toEqual({ publicKey: 'pk', assistantId: 'a', apiBaseUrl: 'http://x:9' });
  });

  it.each([
    [{ voice: null }],
    [{}],
    [null],
    [{ voice: { publicKey: 'pk' } }],
    [{ voice: { publicKey: 1, assistantId: 'a' } }],
  ])('%o means not configured', (body) => expect(parseVoiceConfig(body)).toBeNull());

  it('fails clearly when the server answers an error', async () => {
    const fetchImpl = (async () => new Response('{}', { status: 503 })) as typeof fetch;
    await expect(fetchVoiceConfig(fetchImpl)).rejects.toThrow('/api/client-config answered 503');
  });
});
