import { useEffect, useId, useRef, useState } from 'react';
import { chatConsent as texts, phoneConsent } from '../../content';
import { language } from '../../language';
import { cn } from '../../lib/cn';
import { sendConsent, type ConsentAnswer } from './chat-consent';

interface Props {
  /** The chat's session, which the answer is recorded under. */
  chatId: string;
  /** Where focus goes once the visitor has answered: the text box, to go on typing. */
  onAnswered: () => void;
  send?: typeof sendConsent;
}

/**
 * The consent to be called as the quote form shows it (`quote.phoneConsent`, the broker named,
 * in the page's language), with Yes and No: a group named by its question, its text describing
 * both buttons. It takes focus when it appears, so a keyboard or screen-reader visitor meets it
 * at once; the answer is said in a status line, and the buttons go once it is recorded.
 */
export default function ChatConsent({ chatId, onAnswered, send = sendConsent }: Props) {
  const [answer, setAnswer] = useState<ConsentAnswer | null>(null);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const labelId = useId();
  const textId = useId();
  const group = useRef<HTMLDivElement>(null);

  useEffect(() => {
    group.current?.querySelector('button')?.focus();
  }, []);

  function answerWith(given: ConsentAnswer) {
    setSending(true);
    setFailed(false);
    send(chatId, given)
      .then(() => {
        setAnswer(given);
        onAnswered();
      })
      .catch(() => setFailed(true))
      .finally(() => setSending(false));
  }

  const button =
    'rounded-full px-4 py-2 font-medium focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60';
  return (
    <div lang={language} className="mx-4 mb-2 rounded-2xl bg-brand-50 p-3 text-slate-900">
      {answer === null ? (
        <div ref={group} role="group" aria-labelledby={labelId} aria-describedby={textId}>
          <p id={labelId} className="font-semibold">
            {texts.label}
          </p>
          <p id={textId} className="mt-1">
            {phoneConsent}
          </p>
          <div className="mt-2 flex gap-2">
            <button
              type="button"
              disabled={sending}
              onClick={() => answerWith('yes')}
              className={cn(button, 'bg-brand-700 text-white hover:bg-brand-600')}
            >
              {texts.yes}
            </button>
            <button
              type="button"
              disabled={sending}
              onClick={() => answerWith('no')}
              className={cn(button, 'bg-white ring-1 ring-slate-300 hover:bg-slate-100')}
            >
              {texts.no}
            </button>
          </div>
        </div>
      ) : null}
      <p role="status" className={cn(answer === null && !failed && 'sr-only')}>
        {answer === 'yes' ? texts.given : answer === 'no' ? texts.declined : ''}
      </p>
      {failed && (
        <p role="alert" className="mt-1 font-medium text-red-700">
          {texts.failed}
        </p>
      )}
    </div>
  );
}
