// The page's one voice session, created on first use and kept for the page's lifetime.
import { fetchVoiceConfig } from './client-config';
import { loadVapiClass } from './sdk';
import { createSpeakingDetector } from './speaking';
import { VoiceSession } from './voice-session';

let session: VoiceSession | undefined;

export function pageVoiceSession(): VoiceSession {
  session ??= new VoiceSession({
    loadConfig: () => fetchVoiceConfig(),
    loadSdk: loadVapiClass,
    createDetector: createSpeakingDetector,
  });
  return session;
}
