import { Captions, Mic, MicOff } from 'lucide-react';
import type { Ref } from 'react';
import { cn } from '../../../lib/cn';
import { controls } from '../texts';

interface Props {
  muted: boolean;
  panelOpen: boolean;
  panelId: string;
  panelToggleRef: Ref<HTMLButtonElement>;
  onToggleMute: () => void;
  onTogglePanel: () => void;
}

const round =
  'flex h-11 w-11 items-center justify-center rounded-full bg-white text-slate-800 shadow-lg ring-1 ring-slate-200 ' +
  'hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/** The in-call controls beside the main button: mute, and the captions panel. */
export function CallControls({
  muted,
  panelOpen,
  panelId,
  panelToggleRef,
  onToggleMute,
  onTogglePanel,
}: Props) {
  return (
    <>
      <button
        ref={panelToggleRef}
        type="button"
        aria-label={controls.showCaptions}
        aria-expanded={panelOpen}
        aria-controls={panelId}
        onClick={onTogglePanel}
        className={round}
      >
        <Captions aria-hidden className="h-5 w-5" />
      </button>
      <button
        type="button"
        aria-label={controls.mute}
        aria-pressed={muted}
        onClick={onToggleMute}
        className={cn(round, muted && 'bg-slate-800 text-white hover:bg-slate-700')}
      >
        {muted ? (
          <MicOff aria-hidden className="h-5 w-5" />
        ) : (
          <Mic aria-hidden className="h-5 w-5" />
        )}
      </button>
    </>
  );
}
