import * as Dialog from '@radix-ui/react-dialog';
import { SendHorizontal, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { voiceChat as texts, voiceControls } from 'virtual:site-content';
import { quoteFields } from '../../content';
import { language } from '../../language';
import { cn } from '../../lib/cn';
import type { VoiceConfig } from '../../lib/client-config';
import { recordNoticeAcceptance } from '../../lib/notice-acceptance';
import ChatConsent from './ChatConsent';
import { looksLikePhone } from './chat-consent';
import { useChat } from './use-chat';

interface Props {
  config: VoiceConfig;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The control that opened the chat: focus goes back to it when the panel closes. */
  returnFocus: RefObject<HTMLElement | null>;
}

/**
 * Typing to the voice assistant: a panel at the bottom of a phone's screen (at the bottom right
 * from the sm breakpoint). Enter sends, Escape closes (Radix Dialog, which keeps focus inside).
 * The conversation outlives a close: it stays mounted, only its panel goes. Its notice (an AI
 * answers, the conversation is kept, the privacy notice's link) comes first and is the dialog's
 * description; writing after it accepts it, which the server records under the chat's session.
 * Every text is in the page's language.
 */
export default function ChatPanel({ config, open, onOpenChange, returnFocus }: Props) {
  const { lines, replying, failure, send, sessionId } = useChat(config);
  const [draft, setDraft] = useState('');
  const log = useRef<HTMLDivElement>(null);
  const textBox = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const noticeId = useId();
  const waiting = replying && lines.at(-1)?.role !== 'assistant';
  // The site asks its own question once the visitor has typed a number and the reply has named
  // the chat's session (the id the answer is kept under, as the chat's leads are).
  const askConsent =
    quoteFields.phone !== 'off' &&
    sessionId !== undefined &&
    lines.some((line) => line.role === 'visitor' && looksLikePhone(line.text));

  // The visitor wrote after the notice: accepted, recorded on the server under the chat's
  // session once a reply has named it (the id its conversation is kept under).
  const recordedSession = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (sessionId === undefined || recordedSession.current === sessionId) return;
    recordedSession.current = sessionId;
    void recordNoticeAcceptance({ chat_id: sessionId });
  }, [sessionId]);

  useEffect(() => {
    // The newest words stay in sight as the reply grows.
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [lines, waiting]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (replying || !draft.trim()) return;
    send(draft);
    setDraft('');
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Content
          lang={language}
          aria-describedby={noticeId}
          // The visitor came to type: the text box takes focus, not the close button.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            textBox.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus.current?.focus();
          }}
          className={cn(
            'fixed inset-x-0 bottom-0 z-50 flex h-[min(32rem,85dvh)] flex-col rounded-t-2xl bg-white text-sm text-slate-800 shadow-2xl ring-1 ring-slate-200',
            'sm:inset-x-auto sm:right-6 sm:bottom-24 sm:w-96 sm:rounded-2xl',
          )}
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
            <Dialog.Title className="font-semibold text-slate-900">{texts.title}</Dialog.Title>
            <Dialog.Close
              aria-label={texts.close}
              className="rounded-full p-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <X aria-hidden className="h-5 w-5" />
            </Dialog.Close>
          </div>
          {/* Polite, and busy while a reply streams: a screen reader reads the reply once whole
              rather than word by word. */}
          <div
            ref={log}
            role="log"
            aria-live="polite"
            aria-busy={replying}
            aria-label={texts.title}
            className="flex flex-1 flex-col gap-2 overflow-y-auto px-4 py-3"
          >
            <div className="text-slate-600">
              <p id={noticeId}>{texts.notice}</p>
              <a
                href={voiceControls.consentPrivacy.href}
                className="font-semibold text-brand-700 underline hover:text-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {voiceControls.consentPrivacy.label}
              </a>
            </div>
            {lines.map((line) => (
              <p
                key={line.id}
                data-role={line.role}
                className={cn(
                  'max-w-[85%] rounded-2xl px-3 py-2 whitespace-pre-wrap',
                  line.role === 'visitor'
                    ? 'self-end bg-brand-700 text-white'
                    : 'self-start bg-slate-100 text-slate-900',
                )}
              >
                <span className="sr-only">
                  {line.role === 'visitor' ? texts.visitor : texts.assistant}:{' '}
                </span>
                {line.lang ? <span lang={line.lang}>{line.text}</span> : line.text}
              </p>
            ))}
            {!lines.some((line) => line.role === 'visitor') && (
              <p className="text-slate-600">{texts.empty}</p>
            )}
          </div>
          {askConsent && (
            <ChatConsent chatId={sessionId} onAnswered={() => textBox.current?.focus()} />
          )}
          {waiting && <p className="px-4 pb-1 text-slate-600 italic">{texts.writing}</p>}
          {failure && (
            <p role="alert" className="px-4 pb-1 font-medium text-red-700">
              {texts.failure[failure]}
            </p>
          )}
          <form onSubmit={submit} className="flex items-center gap-2 border-t border-slate-200 p-3">
            <label htmlFor={inputId} className="sr-only">
              {texts.inputLabel}
            </label>
            <input
              ref={textBox}
              id={inputId}
              type="text"
              autoComplete="off"
              enterKeyHint="send"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder={texts.placeholder}
              className="min-w-0 flex-1 rounded-full border border-slate-300 px-4 py-2 text-base focus-visible:outline-2 focus-visible:outline-brand-600"
            />
            <button
              type="submit"
              aria-label={texts.send}
              disabled={replying}
              className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-700 text-white hover:bg-brand-600 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60"
            >
              <SendHorizontal aria-hidden className="h-5 w-5" />
            </button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
