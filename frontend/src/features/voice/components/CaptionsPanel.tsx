import { controls } from '../texts';
import type { VoiceSnapshot } from '../session/voice-session';
import { CloseButton } from './CloseButton';
import { PANEL_CARD } from './panel';

interface Props {
  id: string;
  state: VoiceSnapshot;
  onClose: () => void;
}

/**
 * Live captions from the SDK's transcript messages. Only final lines are in the polite live
 * region; the line still being spoken is hidden from screen readers so they are not flooded.
 */
export function CaptionsPanel({ id, state, onClose }: Props) {
  const { captions, partial, muted, visitorSilent } = state;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={PANEL_CARD}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="font-semibold text-slate-900">
          {controls.panelTitle}
        </h2>
        <CloseButton label={controls.closePanel} onClick={onClose} />
      </div>
      <ol
        aria-live="polite"
        aria-relevant="additions"
        className="max-h-48 space-y-1 overflow-y-auto"
      >
        {captions.map((c) => (
          <li key={c.id}>
            <span className="font-semibold">
              {c.role === 'user' ? controls.visitor : controls.assistant}:{' '}
            </span>
            {c.text}
          </li>
        ))}
      </ol>
      {partial ? (
        <p aria-hidden className="mt-1 text-slate-500 italic">
          {partial.role === 'user' ? controls.visitor : controls.assistant}: {partial.text}
        </p>
      ) : (
        captions.length === 0 && <p className="text-slate-500">{controls.waitingForWords}</p>
      )}
      <p role="status" className="mt-2 font-medium text-amber-800 empty:hidden">
        {muted ? controls.mutedNote : visitorSilent ? controls.silenceHint : ''}
      </p>
    </section>
  );
}
