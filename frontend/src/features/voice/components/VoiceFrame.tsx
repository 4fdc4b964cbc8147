// The voice region's frame and its two round buttons as both of its stages draw them: the idle
// buttons the page shows first (IdleVoice.tsx, in the first chunk) and the assistant that takes
// over when the visitor comes near (VoiceAssistant.tsx), so the handover moves no pixel. Plain
// SVG icons and clsx only: lucide-react's runtime and tailwind-merge stay out of the first chunk.
import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';
import { voiceChat } from 'virtual:site-content';
import { MessageSquareTextIcon } from './idle-icons';
import { spanish } from '../../../content';
import type { CallPhase } from '../session/voice-session';
import { controls } from '../texts';

/**
 * The region at the bottom right: `notices` (consent, failure, captions) stacked above the row of
 * buttons (`row`: the in-call controls, the chat control and the voice button).
 */
export function VoiceFrame({
  notices,
  row,
  ...region
}: { notices?: ReactNode; row: ReactNode } & Omit<ComponentProps<'div'>, 'children'>) {
  return (
    <div
      role="region"
      aria-label={controls.region}
      lang={spanish}
      className="fixed right-4 bottom-4 z-50 flex flex-col items-end gap-3 sm:right-6 sm:bottom-6"
      {...region}
    >
      <div className="flex flex-col items-end gap-3">{notices}</div>
      <div className="flex items-center gap-3">{row}</div>
    </div>
  );
}

/** The control beside the voice button that opens the chat (typing instead of talking). */
export function ChatButton({
  expanded,
  ...button
}: { expanded: boolean } & ComponentProps<'button'>) {
  return (
    <button
      type="button"
      aria-label={voiceChat.open}
      title={voiceChat.open}
      aria-haspopup="dialog"
      aria-expanded={expanded}
      className="flex h-11 w-11 items-center justify-center rounded-full bg-white text-brand-700 shadow-lg ring-1 ring-slate-200 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      {...button}
    >
      <MessageSquareTextIcon aria-hidden className="h-5 w-5" />
    </button>
  );
}

/** The round voice button's look: gradient when idle and connecting, red in a call. */
export const voiceButtonClass = (phase: CallPhase) =>
  clsx(
    'relative flex h-16 w-16 items-center justify-center rounded-full text-white shadow-xl transition-colors',
    'focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-600',
    phase === 'in-call'
      ? 'bg-red-600 hover:bg-red-700'
      : 'bg-gradient-to-br from-brand-600 to-accent-500 hover:brightness-110',
  );
