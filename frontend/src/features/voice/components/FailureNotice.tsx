import { voiceChat } from 'virtual:site-content';
import { controls, failureMessage, type FailureKind } from '../texts';
import { CloseButton } from './CloseButton';

/**
 * The short visible message when a call could not start or broke; when the microphone was the
 * cause, typing to the assistant instead (`onType`).
 */
export function FailureNotice({
  failure,
  onDismiss,
  onType,
}: {
  failure: FailureKind;
  onDismiss: () => void;
  onType?: () => void;
}) {
  return (
    // The alert is the message alone: the offer to type is a control beside it, not news.
    <div className="flex w-72 max-w-[calc(100vw-2rem)] items-start gap-2 rounded-xl bg-white p-3 text-sm text-slate-900 shadow-xl ring-1 ring-red-300">
      <div className="flex-1">
        <p role="alert">{failureMessage[failure]}</p>
        {onType && (
          <button
            type="button"
            onClick={onType}
            className="mt-2 font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {voiceChat.openInstead}
          </button>
        )}
      </div>
      <CloseButton label={controls.dismiss} onClick={onDismiss} />
    </div>
  );
}
