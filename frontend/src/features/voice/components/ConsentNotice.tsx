import { useIsPresent } from 'framer-motion';
import { useEffect, useRef } from 'react';
import { language } from '../../../language';
import { consentText, controls } from '../texts';
import { PANEL_CARD } from './panel';

interface Props {
  onAccept: () => void;
  onCancel: () => void;
}

/**
 * Shown before the first call until accepted (content: voiceControls.consentText, or
 * consentTextRecorded when calls are recorded), with a link to the privacy notice. In the page's
 * language, inside the voice region whose tooltips docs/product.md keeps in Spanish.
 */
export function ConsentNotice({ onAccept, onCancel }: Props) {
  const accept = useRef<HTMLButtonElement>(null);
  // On entering, and on entering again while it was still leaving (a second click soon after
  // 'Cancelar' keeps this notice rather than making a new one).
  const present = useIsPresent();
  useEffect(() => {
    if (present) accept.current?.focus();
  }, [present]);
  return (
    <div
      role="dialog"
      lang={language}
      aria-labelledby="voice-consent-title"
      aria-describedby="voice-consent-text"
      className={PANEL_CARD}
    >
      <h2 id="voice-consent-title" className="mb-1 font-semibold text-slate-900">
        {controls.consentTitle}
      </h2>
      <p id="voice-consent-text">{consentText}</p>
      <p className="mt-1">
        <a
          href={controls.consentPrivacy.href}
          className="font-semibold text-brand-700 underline hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {controls.consentPrivacy.label}
        </a>
      </p>
      <div className="mt-3 flex justify-end gap-2">
        <button
          type="button"
          onClick={onCancel}
          className="rounded-full px-3 py-1.5 font-semibold hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {controls.consentCancel}
        </button>
        <button
          ref={accept}
          type="button"
          onClick={onAccept}
          className="rounded-full bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {controls.consentAccept}
        </button>
      </div>
    </div>
  );
}
