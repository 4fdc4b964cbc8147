import type { ComponentType } from 'react';
import { pageVoiceSession } from './page-session';

/** What the voice island shows on a page whose server has no voice configuration. */
const NoVoice: ComponentType = () => null;

/**
 * The voice island's component. The server is asked first: the assistant's own code (its motion,
 * its tooltips, about 35 KB gzip) is fetched only when voice is configured or the server could not
 * be asked (the button then retries on the next click). With voice off, the default, the page
 * loads none of it.
 */
export async function loadVoiceIsland(): Promise<ComponentType> {
  const session = pageVoiceSession();
  await session.checkAvailability();
  if (session.getSnapshot().availability === 'not-configured') return NoVoice;
  return (await import('./VoiceAssistant')).VoiceAssistant;
}
