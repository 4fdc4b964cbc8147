import { useEffect, useRef, useState } from 'react';
import { api, type Conversation } from './api';
import { endedText, formatTime, sourceLabel } from './format';

/** How a conversation ended, in words (the lead's page says it the same way). */
const ended = (reason: string | null) => endedText({ call_ended: null, call_ended_reason: reason });

interface Props {
  /** Reports a failed call; returns the message to show, or null when it was handled. */
  onError: (error: unknown) => string | null;
}

/** `#conversation/<call id>`: a conversation's page. */
export const conversationHref = (callId: string) => `#conversation/${encodeURIComponent(callId)}`;

/**
 * The conversations with the assistant the site keeps (CONVERSATION_RETENTION_DAYS), with or
 * without a lead, newest first: the records a Medicare broker keeps of each marketing call.
 */
export function ConversationList({ onError }: Props) {
  const [rows, setRows] = useState<Conversation[] | null>(null);
  const [error, setError] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    let current = true;
    api.conversations().then(
      (page) => current && setRows(page.conversations),
      (failure: unknown) => current && setError(onError(failure) ?? ''),
    );
    return () => {
      current = false;
    };
  }, [onError]);

  return (
    <section aria-labelledby="conversations-heading">
      <h1 id="conversations-heading" ref={heading} tabIndex={-1} className="text-2xl font-bold">
        Conversations
      </h1>
      <p className="mt-1 text-slate-700">
        Every call and chat with the assistant, kept with or without a lead and after its lead is
        deleted, newest first.
      </p>
      {error && (
        <p role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}
      {rows === null && !error && <p role="status">Loading…</p>}
      {rows?.length === 0 && <p className="mt-4">No conversation is kept yet.</p>}
      {rows && rows.length > 0 && (
        <ul className="mt-4 flex flex-col gap-3">
          {rows.map((row) => (
            <li key={row.call_id} className="rounded-2xl bg-white p-4 shadow-sm">
              <a
                href={conversationHref(row.call_id)}
                className="font-semibold break-all text-brand-700 underline"
              >
                {`${sourceLabel(row.channel)}, ${formatTime(row.reported_at)}`}
              </a>
              <p className="mt-1 text-slate-700">{row.summary ?? 'No summary.'}</p>
              <p className="mt-1 text-sm text-slate-700">
                {ended(row.ended_reason)}
                {' · '}
                {row.lead_id ? (
                  <a href={`#lead/${row.lead_id}`} className="text-brand-700 underline">
                    Its lead
                  </a>
                ) : (
                  'No lead'
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One conversation: how it ended, its summary, its whole transcript and its recording's link. */
export function ConversationPage({ callId, onError }: Props & { callId: string }) {
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [error, setError] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let current = true;
    api.conversation(callId).then(
      (found) => {
        if (!current) return;
        setConversation(found);
        heading.current?.focus();
      },
      (failure: unknown) => current && setError(onError(failure) ?? ''),
    );
    return () => {
      current = false;
    };
  }, [callId, onError]);

  return (
    <section aria-labelledby="conversation-heading">
      <a href="#conversations" className="text-brand-700 underline">
        Back to the conversations
      </a>
      <h1
        id="conversation-heading"
        ref={heading}
        tabIndex={-1}
        className="mt-3 text-2xl font-bold break-all"
      >
        Conversation {callId}
      </h1>
      {error && (
        <p role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}
      {conversation && (
        <dl className="mt-4 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm">
          <div>
            <dt className="text-sm font-semibold text-slate-700">Ended</dt>
            <dd>{`${ended(conversation.ended_reason)}, ${formatTime(conversation.reported_at)}`}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-slate-700">Lead</dt>
            <dd>
              {conversation.lead_id ? (
                <a href={`#lead/${conversation.lead_id}`} className="text-brand-700 underline">
                  Its lead
                </a>
              ) : (
                'None'
              )}
            </dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-slate-700">Summary</dt>
            <dd>{conversation.summary ?? 'None'}</dd>
          </div>
          {conversation.recording_url && (
            <div>
              <dt className="text-sm font-semibold text-slate-700">Recording</dt>
              <dd>
                <a
                  href={conversation.recording_url}
                  className="text-brand-700 underline"
                  rel="noreferrer"
                >
                  At the voice provider
                </a>
              </dd>
            </div>
          )}
          <div>
            <dt className="text-sm font-semibold text-slate-700">Transcript</dt>
            <dd>
              <pre className="font-sans whitespace-pre-wrap">
                {conversation.transcript ?? 'None'}
              </pre>
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
