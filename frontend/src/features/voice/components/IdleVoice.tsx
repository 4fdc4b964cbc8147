import type { KeyboardEvent, PointerEvent, Ref } from 'react';
import { MicIcon } from './idle-icons';
import { tooltip } from '../texts';
import { ChatButton, VoiceFrame, voiceButtonClass } from './VoiceFrame';

/** The two buttons of the voice region, as the handover names them. */
export type VoiceControl = 'call' | 'chat';

interface Props {
  voiceRef: Ref<HTMLButtonElement>;
  chatRef: Ref<HTMLButtonElement>;
  /** A pointer over the region or focus in it: the assistant's code is worth fetching now. */
  onNear: (pointerType?: string) => void;
  /** A press has begun (pointer down, Space down) whose click is still to come. */
  onPress: () => void;
  /** The visitor clicked one of the buttons before the assistant was there. */
  onActivate: (control: VoiceControl) => void;
}

/**
 * The voice button and the chat control as they wait for a visitor: plain markup in the look of
 * the assistant's (VoiceFrame.tsx), no state, no animation library, no tooltip library. The
 * voice button enters with a CSS animation (`.voice-enter`, cut under prefers-reduced-motion).
 */
export function IdleVoice({ voiceRef, chatRef, onNear, onPress, onActivate }: Props) {
  return (
    <VoiceFrame
      onPointerEnter={(event: PointerEvent) => onNear(event.pointerType)}
      onFocus={() => onNear()}
      onPointerDown={(event: PointerEvent) => {
        onNear(event.pointerType);
        onPress();
      }}
      // Space clicks on its release, which must reach the same button (Enter clicks at once).
      onKeyDown={(event: KeyboardEvent) => event.key === ' ' && onPress()}
      row={
        <>
          <ChatButton ref={chatRef} expanded={false} onClick={() => onActivate('chat')} />
          <button
            ref={voiceRef}
            type="button"
            aria-label={tooltip.idle}
            aria-busy={false}
            data-phase="idle"
            onClick={() => onActivate('call')}
            className={`${voiceButtonClass('idle')} voice-enter`}
          >
            <MicIcon aria-hidden className="h-7 w-7" />
          </button>
        </>
      }
    />
  );
}
