import { useRef, useState, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { consoleLine } from '../texts';
import { IdleVoice, type VoiceControl } from './IdleVoice';
import type { Handover } from './VoiceAssistant';

/** The assistant that takes over from the idle buttons (VoiceAssistant, with its session). */
export type LiveAssistant = ComponentType<{ handover: Handover }>;

/** What the idle buttons have seen of the visitor so far, for the handover. */
interface Approach {
  /** The button clicked before the assistant was there: the assistant does it on arrival. */
  action: VoiceControl | null;
  /** How the visitor came near (a pointer's type). */
  pointerType?: string;
  /** A press under way: its click must land on the button it began on, not on a new one. */
  pressed: boolean;
  loading?: Promise<void>;
  loaded?: LiveAssistant;
}

/**
 * The voice island with voice configured. It shows the idle buttons (IdleVoice.tsx), which need
 * nothing but React; the assistant (its state, motion, tooltips, notices, the chat) is fetched
 * when the visitor comes near them (a pointer over the region, focus, a press) and then takes
 * their place in the same spot with the same look. Nothing the visitor did is lost: a click made
 * meanwhile is done by the assistant on arrival, keyboard focus moves to its button, a mouse
 * resting on the voice button still opens its tooltip, and the swap waits for a press to finish.
 */
export function VoiceIsland({ loadAssistant }: { loadAssistant: () => Promise<LiveAssistant> }) {
  const [live, setLive] = useState<{ Assistant: LiveAssistant; handover: Handover } | null>(null);
  const voice = useRef<HTMLButtonElement>(null);
  const chat = useRef<HTMLButtonElement>(null);
  const approach = useRef<Approach>({ action: null, pressed: false });

  function handOver() {
    const { loaded: Assistant, pressed, action, pointerType } = approach.current;
    if (!Assistant || pressed) return;
    const which = (selector: string): VoiceControl | null =>
      voice.current?.matches(selector) ? 'call' : chat.current?.matches(selector) ? 'chat' : null;
    const handover: Handover = {
      action,
      // Keyboard focus only: a mouse's focus would open the tooltip its click had closed.
      focus: which(':focus-visible'),
      // A touch leaves no hover behind, and a click has already closed the tooltip.
      hovered: !action && pointerType !== 'touch' ? which(':hover') : null,
    };
    // At once: no click may fall between this look at the idle buttons and their removal.
    flushSync(() => setLive({ Assistant, handover }));
  }

  function near(pointerType?: string) {
    const state = approach.current;
    if (pointerType) state.pointerType = pointerType;
    state.loading ??= loadAssistant().then(
      (Assistant) => {
        state.loaded = Assistant;
        handOver();
      },
      (error: unknown) => {
        state.loading = undefined; // the next approach tries again
        console.error(consoleLine.assistantLoadFailed, error);
      },
    );
  }

  function press() {
    approach.current.pressed = true;
    const released = new AbortController();
    const release = () => {
      released.abort();
      // A mouse's click comes in the release's own task: the swap waits until after it.
      setTimeout(() => {
        approach.current.pressed = false;
        handOver();
      });
    };
    for (const type of ['pointerup', 'pointercancel', 'keyup'])
      window.addEventListener(type, release, { capture: true, signal: released.signal });
  }

  if (live) return <live.Assistant handover={live.handover} />;
  return (
    <IdleVoice
      voiceRef={voice}
      chatRef={chat}
      onNear={near}
      onPress={press}
      onActivate={(control) => {
        approach.current.action = control;
        near();
      }}
    />
  );
}
