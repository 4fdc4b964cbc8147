import { useCallback, useEffect, useRef, useState } from 'react';
import { disclaimerText } from '../../components/broker/MedicareDisclaimer';
import { leadNotice } from '../../content';
import { language, type Language } from '../../language';
import type { VoiceConfig } from '../../lib/client-config';
import { ChatError, sendChatMessage, type ChatFailureKind } from './web-chat';

/** The console line for whoever debugs the page, Spanish like the voice assistant's. */
const CONSOLE_LINE = 'Error en el chat con el asistente';

export interface ChatLine {
  id: number;
  role: 'visitor' | 'assistant';
  text: string;
  /** The line's language, when it is known to be the page's (the panel's own texts are Spanish). */
  lang?: Language;
}

/**
 * What the conversation opens with, as the voice assistant's first message says it, before
 * anything is discussed: the Medicare disclaimer the page shows (when the content turns it on),
 * then the lead-generation notice the quote form shows (a lead from the chat keeps it as its
 * consent record), both in the page's language.
 */
export function openingLines(disclaimer: string | undefined, notice: string): readonly ChatLine[] {
  const texts = disclaimer ? [disclaimer, notice] : [notice];
  return texts.map((text, i) => ({
    id: i - texts.length,
    role: 'assistant' as const,
    text,
    lang: language,
  }));
}

export interface ChatState {
  lines: readonly ChatLine[];
  /** A reply is on its way (streaming or not started yet): one message at a time. */
  replying: boolean;
  failure: ChatFailureKind | null;
  send: (input: string) => void;
  /** The session the provider's last reply named: the chat's id on the site's side. */
  sessionId: string | undefined;
}

/**
 * One conversation with the assistant: the visitor's lines and the replies as they stream in.
 * The provider's session id goes from each reply to the next message, so the assistant remembers.
 */
export function useChat(config: VoiceConfig): ChatState {
  const [lines, setLines] = useState(() => openingLines(disclaimerText(), leadNotice));
  const [replying, setReplying] = useState(false);
  const [failure, setFailure] = useState<ChatFailureKind | null>(null);
  const sessionId = useRef<string | undefined>(undefined);
  const [session, setSession] = useState<string | undefined>(undefined);
  const nextId = useRef(0);
  const inFlight = useRef<AbortController | null>(null);

  // Closing the panel stops a reply still streaming.
  useEffect(() => () => inFlight.current?.abort(), []);

  const send = useCallback(
    (input: string) => {
      const text = input.trim();
      if (!text || inFlight.current) return;
      const controller = new AbortController();
      inFlight.current = controller;
      const replyId = nextId.current + 1;
      nextId.current += 2;
      setLines((old) => [...old, { id: replyId - 1, role: 'visitor', text }]);
      setFailure(null);
      setReplying(true);
      const appendToReply = (delta: string) =>
        setLines((old) =>
          old.at(-1)?.id === replyId
            ? [...old.slice(0, -1), { ...old.at(-1)!, text: old.at(-1)!.text + delta }]
            : [...old, { id: replyId, role: 'assistant', text: delta }],
        );
      sendChatMessage({
        config,
        input: text,
        sessionId: sessionId.current,
        onDelta: appendToReply,
        signal: controller.signal,
      })
        .then((named) => {
          sessionId.current = named;
          setSession(named);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error(CONSOLE_LINE, error);
          setFailure(error instanceof ChatError ? error.kind : 'unavailable');
        })
        .finally(() => {
          if (inFlight.current === controller) inFlight.current = null;
          if (!controller.signal.aborted) setReplying(false);
        });
    },
    [config],
  );

  return { lines, replying, failure, send, sessionId: session };
}
