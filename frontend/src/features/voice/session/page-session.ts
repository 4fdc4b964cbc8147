// The page's one voice session, created on first use and kept for the page's lifetime.
import { fetchVoiceConfig, type VoiceConfig } from '../../../lib/client-config';
import { recordNoticeAcceptance } from '../../../lib/notice-acceptance';
import { loadVapiClass } from '../sdk/vapi';
import { createSpeakingDetector } from './speaking';
import { VoiceSession } from './voice-session';

let session: VoiceSession | undefined;

/**
 * `firstAnswer`: the server's answer about voice, when it was already asked for
 * (load-voice-island.ts); the session's first check uses it instead of asking again.
 */
export function pageVoiceSession(firstAnswer?: Promise<VoiceConfig | null>): VoiceSession {
  if (!session) {
    let pending = firstAnswer;
    session = new VoiceSession({
      loadConfig: () => {
        const answer = pending ?? fetchVoiceConfig();
        pending = undefined;
        return answer;
      },
      loadSdk: loadVapiClass,
      createDetector: createSpeakingDetector,
      noticeAccepted: (callId) => void recordNoticeAcceptance({ call_id: callId }),
    });
  }
  return session;
}
