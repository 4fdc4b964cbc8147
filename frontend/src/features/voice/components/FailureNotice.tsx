import { X } from 'lucide-react';
import { controls, failureMessage, type FailureKind } from '../texts';

/** The short visible message when a call could not start or broke. */
export function FailureNotice({
  failure,
  onDismiss,
}: {
  failure: FailureKind;
  onDismiss: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex w-72 max-w-[calc(100vw-2rem)] items-start gap-2 rounded-xl bg-white p-3 text-sm text-slate-900 shadow-xl ring-1 ring-red-300"
    >
      <p className="flex-1">{failureMessage[failure]}</p>
      <button
        type="button"
        aria-label={controls.dismiss}
        onClick={onDismiss}
        className="rounded-full p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <X aria-hidden className="h-4 w-4" />
      </button>
    </div>
  );
}
