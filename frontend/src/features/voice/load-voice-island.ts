import { createElement, type ComponentType } from 'react';
import { fetchVoiceConfig } from '../../lib/client-config';

/** What the voice island shows on a page whose server has no voice configuration. */
const NoVoice: ComponentType = () => null;

/**
 * The voice island's component. The server is asked first, with nothing but the request's own
 * code. With voice configured (or a server that could not be asked: the button then retries on
 * the next click) come the idle buttons (VoiceIsland.tsx, a small chunk of its own); the session
 * (`page-session.ts`) and the assistant (its motion, its tooltips) only when the visitor comes
 * near them. With voice off, the default, the page loads none of it.
 */
export async function loadVoiceIsland(): Promise<ComponentType> {
  const answer = fetchVoiceConfig();
  if ((await answer.catch(() => undefined)) === null) return NoVoice;
  const { VoiceIsland } = await import('./components/VoiceIsland');
  async function loadAssistant() {
    const [{ pageVoiceSession }, { VoiceAssistant }] = await Promise.all([
      import('./session/page-session'),
      import('./components/VoiceAssistant'),
    ]);
    // The session takes this answer, a failure included (it then shows the retry), as its
    // first, and has it before the assistant's first render, which then draws the button.
    await pageVoiceSession(answer).checkAvailability();
    return VoiceAssistant;
  }
  return function ConfiguredVoice() {
    return createElement(VoiceIsland, { loadAssistant });
  };
}
