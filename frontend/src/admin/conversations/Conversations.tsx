import { useEffect, useRef, useState } from 'react';
import { api, type Conversation, type Recording } from '../api/api';
import {
  channelLabel,
  endedText,
  formatBytes,
  formatTime,
  languageLabel,
  shortHash,
} from '../shared/format';
import { Alert, ListPage } from '../shared/ListPage';
import { useLoad, type OnError } from '../shared/load';
import { providerLink } from '../shared/provider-link';

/** How a conversation ended, in words (the lead's page says it the same way). */
const ended = (reason: string | null) => endedText({ call_ended: null, call_ended_reason: reason });

/** When it started; when the provider did not say, when it was reported. */
const startedAt = (conversation: Conversation) =>
  formatTime(conversation.started_at ?? conversation.reported_at);

/** How it ended: a call by its end-of-call report; a chat has none, only its latest turn. */
const endedLine = (conversation: Conversation) =>
  conversation.channel === 'chat'
    ? `Latest message ${formatTime(conversation.reported_at)}`
    : ended(conversation.ended_reason);

interface Props {
  onError: OnError;
}

/** `#conversation/<call id>`: a conversation's page. */
export const conversationHref = (callId: string) => `#conversation/${encodeURIComponent(callId)}`;

/**
 * The conversations with the assistant the site keeps (CONVERSATION_RETENTION_DAYS), with or
 * without a lead, newest first: the records a Medicare broker keeps of each marketing call.
 */
export function ConversationList({ onError }: Props) {
  const { value, error } = useLoad(api.conversations, undefined, onError);
  const rows = value?.conversations ?? null;
  return (
    <ListPage
      id="conversations-heading"
      title="Conversations"
      intro="Every call and chat with the assistant, kept with or without a lead and after its lead is deleted, newest first."
      error={error}
      loading={rows === null}
    >
      {rows?.length === 0 && <p className="mt-4">No conversation is kept yet.</p>}
      {rows && rows.length > 0 && (
        <ul className="mt-4 flex flex-col gap-3">
          {rows.map((row) => (
            <li key={row.call_id} className="rounded-2xl bg-white p-4 shadow-sm">
              <a
                href={conversationHref(row.call_id)}
                className="font-semibold break-all text-brand-700 underline"
              >
                {`${channelLabel(row.channel)}, ${startedAt(row)}`}
              </a>
              <p className="mt-1 text-slate-700">{row.summary ?? 'No summary.'}</p>
              <p className="mt-1 text-sm text-slate-700">
                {endedLine(row)}
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
    </ListPage>
  );
}

/** The recording's link at the voice provider, where there is one that may be linked. */
function ProviderLink({ url }: { url: string | null }) {
  const href = providerLink(url);
  if (!href) return null;
  return (
    <a href={href} className="text-brand-700 underline" rel="noreferrer">
      At the voice provider
    </a>
  );
}

/**
 * The call's recording: the site's own copy to play and download once it is copied from the
 * voice provider, else where the copy stands, with the provider's link.
 */
function RecordingDetails({
  callId,
  recording,
  providerUrl,
}: {
  callId: string;
  recording: Recording | null;
  providerUrl: string | null;
}) {
  if (recording?.status === 'stored') {
    const href = api.recordingHref(callId);
    return (
      <div className="flex flex-col items-start gap-1">
        {/* eslint-disable-next-line jsx-a11y/media-has-caption -- its text is the transcript below. */}
        <audio
          controls
          preload="none"
          src={href}
          aria-label="Call recording"
          className="w-full max-w-md"
        />
        <p className="text-sm text-slate-700">
          Kept on this site
          {recording.bytes !== null && `, ${formatBytes(recording.bytes)}`}
          {recording.sha256 && (
            <>
              {', SHA-256 '}
              <span className="font-mono" title={recording.sha256}>
                {shortHash(recording.sha256)}
              </span>
            </>
          )}
        </p>
        <a href={href} download className="text-brand-700 underline">
          Download the recording
        </a>
      </div>
    );
  }
  if (recording) {
    const pending = recording.status === 'pending';
    return (
      <div className="flex flex-col items-start gap-1">
        <p>
          {pending
            ? 'It is being copied from the voice provider; it plays here once copied.'
            : 'It could not be copied from the voice provider.'}
        </p>
        {recording.error && <p className="text-sm text-slate-700">Last error: {recording.error}</p>}
        <ProviderLink url={providerUrl} />
      </div>
    );
  }
  return <ProviderLink url={providerUrl} />;
}

/**
 * The conversation's legal hold: while on, no purge deletes it or its recording's copy, whatever
 * CONVERSATION_RETENTION_DAYS says (a complaint, an audit); the broker puts it on and lets it go.
 */
function LegalHold({
  conversation,
  onChange,
  onError,
}: Props & { conversation: Conversation; onChange: (changed: Conversation) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const held = conversation.legal_hold_at !== null;
  const toggle = () => {
    setBusy(true);
    setError('');
    api.setLegalHold(conversation.call_id, !held).then(
      (changed) => {
        setBusy(false);
        onChange(changed);
      },
      (failure: unknown) => {
        setBusy(false);
        setError(onError(failure) ?? '');
      },
    );
  };
  return (
    <div className="flex flex-col items-start gap-1">
      <p>
        {conversation.legal_hold_at
          ? `On legal hold since ${formatTime(conversation.legal_hold_at)}: kept, with its recording, until let go.`
          : 'Not held: deleted once older than CONVERSATION_RETENTION_DAYS.'}
      </p>
      <button
        type="button"
        onClick={toggle}
        disabled={busy}
        className="rounded-lg border border-slate-300 px-3 py-1 font-semibold text-brand-700"
      >
        {held ? 'Let go of the legal hold' : 'Put on legal hold'}
      </button>
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The visitor's acceptance of the notice before the conversation, in one line: when, in which
 * language, the text's SHA-256 (the text itself in its title and in the records ZIP).
 */
function NoticeAccepted({ accepted }: { accepted: Conversation['notice_accepted'] }) {
  if (!accepted) return <>Not recorded</>;
  return (
    <>
      {`Accepted ${formatTime(accepted.at)}, ${languageLabel(accepted.language)}, SHA-256 `}
      <span className="font-mono" title={accepted.text}>
        {shortHash(accepted.sha256)}
      </span>
    </>
  );
}

/** One conversation: how it went, its summary, its whole transcript and its recording. */
export function ConversationPage({ callId, onError }: Props & { callId: string }) {
  const {
    value: conversation,
    setValue: setConversation,
    error,
  } = useLoad(api.conversation, callId, onError);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = conversation !== null;
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);

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
      <Alert error={error} />
      {conversation && (
        <dl className="mt-4 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm">
          <div>
            <dt className="text-sm font-semibold text-slate-700">Channel</dt>
            <dd>{channelLabel(conversation.channel)}</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold text-slate-700">Started</dt>
            <dd>
              {conversation.started_at
                ? formatTime(conversation.started_at)
                : 'Not reported by the voice provider'}
            </dd>
          </div>
          {conversation.channel === 'chat' ? (
            <div>
              <dt className="text-sm font-semibold text-slate-700">Latest message</dt>
              <dd>{formatTime(conversation.reported_at)}</dd>
            </div>
          ) : (
            <div>
              <dt className="text-sm font-semibold text-slate-700">Ended</dt>
              <dd>{`${ended(conversation.ended_reason)}, ${formatTime(conversation.reported_at)}`}</dd>
            </div>
          )}
          <div>
            <dt className="text-sm font-semibold text-slate-700">Notice</dt>
            <dd>
              <NoticeAccepted accepted={conversation.notice_accepted} />
            </dd>
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
          <div>
            <dt className="text-sm font-semibold text-slate-700">Legal hold</dt>
            <dd>
              <LegalHold conversation={conversation} onChange={setConversation} onError={onError} />
            </dd>
          </div>
          {(conversation.recording || conversation.recording_url) && (
            <div>
              <dt className="text-sm font-semibold text-slate-700">Recording</dt>
              <dd>
                <RecordingDetails
                  callId={conversation.call_id}
                  recording={conversation.recording}
                  providerUrl={conversation.recording_url}
                />
              </dd>
            </div>
          )}
          <div>
            <dt className="text-sm font-semibold text-slate-700">Transcript</dt>
            <dd>
              <pre className="font-sans whitespace-pre-wrap">
                {conversation.transcript ?? 'None'}
              </pre>
              {conversation.transcript_lines_dropped > 0 && (
                <p className="mt-2 text-slate-700">
                  {`${conversation.transcript_lines_dropped} later ${
                    conversation.transcript_lines_dropped === 1 ? 'line was' : 'lines were'
                  } not kept: the transcript is kept to 256 KiB.`}
                </p>
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
