import { Loader2, PhoneOff } from 'lucide-react';
import type { Ref } from 'react';
import { MicIcon } from './idle-icons';
import { Tooltip } from '../../../components/ui/tooltip';
import { spanish } from '../../../content';
import { tooltip } from '../texts';
import type { VoiceSnapshot } from '../session/voice-session';
import { voiceButtonClass } from './VoiceFrame';

/** The ring grows by at most this fraction of the button at full assistant level. */
const RING_MAX_GROWTH = 0.45;

/** The tooltip, which is also the button's accessible name, for each state (docs/product.md §2). */
function buttonLabel(phase: VoiceSnapshot['phase']): string {
  if (phase === 'connecting') return tooltip.connecting;
  if (phase === 'in-call') return tooltip.inCall;
  return tooltip.idle;
}

interface Props {
  state: VoiceSnapshot;
  onActivate: () => void;
  onPrefetch: () => void;
  buttonRef: Ref<HTMLButtonElement>;
}

/** The round floating button: gradient when idle, spinner while connecting, red in a call. */
export function VoiceButton({ state, onActivate, onPrefetch, buttonRef }: Props) {
  const { phase, assistantLevel, assistantSpeaking } = state;
  const label = buttonLabel(phase);
  return (
    <Tooltip label={label} lang={spanish} side="top" align="end" sideOffset={10}>
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-busy={phase === 'connecting'}
        data-phase={phase}
        onClick={onActivate}
        onPointerEnter={onPrefetch}
        onFocus={onPrefetch}
        className={voiceButtonClass(phase)}
      >
        {phase === 'in-call' && (
          <span
            aria-hidden
            data-testid="voice-level-ring"
            data-level={assistantLevel}
            data-speaking={assistantSpeaking}
            className="pointer-events-none absolute inset-0 -z-10 rounded-full bg-red-400/50 transition-transform duration-100"
            style={{ transform: `scale(${1 + assistantLevel * RING_MAX_GROWTH})` }}
          />
        )}
        {phase === 'connecting' ? (
          <Loader2 aria-hidden className="h-7 w-7 animate-spin" />
        ) : phase === 'in-call' ? (
          <PhoneOff aria-hidden className="h-7 w-7" />
        ) : (
          <MicIcon aria-hidden className="h-7 w-7" />
        )}
        {phase === 'in-call' && (
          <span
            aria-hidden
            data-testid="voice-status-dot"
            className="absolute top-0.5 right-0.5 h-3.5 w-3.5 rounded-full border-2 border-white bg-green-500"
          />
        )}
      </button>
    </Tooltip>
  );
}
