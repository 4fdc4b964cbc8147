// The assistant's settings the backend hands out at run time (GET /api/client-config), which a call
// (features/voice) and a chat (features/chat) both start from; here so neither feature imports the
// other's. The notice shown before a call is not one: it is the content's, built into the page
// (features/voice/texts.ts).

export interface VoiceConfig {
  publicKey: string;
  assistantId: string;
  apiBaseUrl: string | null;
}

export const CLIENT_CONFIG_PATH = '/api/client-config';

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const optionalText = (v: unknown) => (isText(v) ? v : null);

/** The voice settings in a client-config body, or `null` when voice is not configured. */
export function parseVoiceConfig(body: unknown): VoiceConfig | null {
  const voice = (body as { voice?: Record<string, unknown> } | null)?.voice;
  if (!voice || !isText(voice.publicKey) || !isText(voice.assistantId)) return null;
  return {
    publicKey: voice.publicKey,
    assistantId: voice.assistantId,
    apiBaseUrl: optionalText(voice.apiBaseUrl),
  };
}

/** Fails with an error when the server cannot be asked; `null` means "not configured". */
export async function fetchVoiceConfig(
  fetchImpl: typeof fetch = fetch,
): Promise<VoiceConfig | null> {
  const response = await fetchImpl(CLIENT_CONFIG_PATH, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${CLIENT_CONFIG_PATH} answered ${response.status}`);
  return parseVoiceConfig(await response.json());
}
