import { useEffect, useSyncExternalStore } from 'react';
import type { VoiceSession } from './voice-session';

/** The session's state for rendering; asks the server whether voice is configured on mount. */
export function useVoiceSession(session: VoiceSession) {
  const snapshot = useSyncExternalStore(
    session.subscribe,
    session.getSnapshot,
    session.getSnapshot,
  );
  useEffect(() => {
    void session.checkAvailability();
  }, [session]);
  return snapshot;
}
