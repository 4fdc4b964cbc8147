import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { buttonVariants } from '../../components/ui/button-variants';
import { api, deliveryChannels, type Lead, type Status } from '../api/api';
import {
  answerHref,
  endedText,
  formatPhone,
  formatTime,
  productLabel,
  sourceLabel,
  consentChannelLabel,
  languageLabel,
  spamReason,
  statusLabel,
  telHref,
} from '../shared/format';
import { LeadCalls } from '../calls/Calls';
import { NoteEditor } from './NoteEditor';
import { NotLicensedBadge } from '../shared/NotLicensedBadge';
import { providerLink } from '../shared/provider-link';
import { notLicensedToCall, stateName } from '../shared/states';
import { useLoad, type OnError } from '../shared/load';

/**
 * The status changes the lead's page offers, in the order of its buttons: from which statuses,
 * to which, and what is said once done. Do not contact and spam are offered from neither
 * other: spam outranks do not contact on the server, and "Not spam" (back to new) would quietly
 * undo a visitor's request not to be contacted.
 */
const MOVES: { from: Status[]; to: Status; label: string; done: string }[] = [
  { from: ['new'], to: 'contacted', label: 'Mark contacted', done: 'Marked as contacted.' },
  { from: ['contacted'], to: 'new', label: 'Mark as new', done: 'Marked as new again.' },
  {
    from: ['new', 'contacted'],
    to: 'do_not_contact',
    label: 'Do not contact',
    done: 'Marked do not contact: nothing more goes out about this lead.',
  },
  {
    from: ['do_not_contact'],
    to: 'new',
    label: 'Undo do not contact',
    done: 'Do not contact undone: marked as new.',
  },
  {
    from: ['spam'],
    to: 'new',
    label: 'Not spam',
    done: 'Marked as not spam: it is delivered like any lead.',
  },
  {
    from: ['new', 'contacted'],
    to: 'spam',
    label: 'Mark as spam',
    done: 'Marked as spam: it is listed under Spam.',
  },
];

interface LeadPageProps {
  id: string;
  onError: OnError;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="font-medium text-slate-700 sm:w-44 sm:shrink-0">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * What deleting a lead leaves: the conversation it came from, kept as the records a Medicare
 * broker must keep (CONVERSATION_RETENTION_DAYS removes it, unless it is on legal hold), and its
 * consent record.
 */
function keptOnDeleting(lead: Pick<Lead, 'call_id' | 'source'>): string {
  if (!lead.call_id) return 'Its consent record is kept.';
  const conversation =
    lead.source === 'chat'
      ? 'The chat it came from, with its transcript,'
      : 'The call it came from, with its transcript and recording,';
  return (
    `${conversation} is kept with the records a Medicare broker must keep, removed once older ` +
    'than CONVERSATION_RETENTION_DAYS unless put on legal hold on its page. Its consent record ' +
    'is kept too.'
  );
}

/** What an oral permission allows: a call dialled by hand, nothing automated. */
const ORAL_CONSENT = 'Oral consent: dial by hand, no automated calls or texts';

/**
 * The lead's number: a `tel:` link only when the visitor agreed to be called and has not asked
 * since not to be contacted; otherwise the number as text, saying why it is no link. An oral
 * permission says so beside it. On a phone the page's Call button dials it; wider, the number
 * itself is the link.
 */
function PhoneNumber({
  lead,
}: {
  lead: Pick<Lead, 'phone' | 'may_call' | 'call_consent' | 'status' | 'state' | 'licensed'>;
}) {
  if (!lead.phone) return null;
  const number = formatPhone(lead.phone);
  if (lead.status === 'do_not_contact') return <>{number} (do not contact)</>;
  if (lead.may_call && lead.state && lead.licensed === false)
    return (
      <>
        {number}
        <br />
        <span className="text-slate-700">{notLicensedToCall(lead.state)}</span>
      </>
    );
  if (!lead.may_call)
    return (
      <>
        {number}
        <br />
        <span className="text-slate-700">E-mail only: no consent to call</span>
      </>
    );
  return (
    <>
      <span className="md:hidden">{number}</span>
      <a href={telHref(lead.phone)} className="hidden text-brand-700 underline md:inline">
        {number}
      </a>
      {lead.call_consent === 'oral' && (
        <>
          <br />
          <span className="text-slate-700">{ORAL_CONSENT}</span>
        </>
      )}
    </>
  );
}

/**
 * The disclosure shown beside the phone field, and whether the visitor ticked its box; in a call
 * or a chat, whether the assistant passed on a yes (oral: no box was ticked).
 */
function PhoneConsentText({
  consent,
  spoken,
  later,
}: {
  consent: NonNullable<NonNullable<Lead['consent']>['phone']>;
  spoken: boolean;
  later: Lead['written_later'];
}) {
  const answer = spoken
    ? consent.given
      ? 'Said yes to the assistant: oral consent, dial by hand only.'
      : 'Did not agree to the assistant: e-mail only.'
    : consent.given
      ? 'Box ticked: the visitor agreed to be called or texted at this number (written consent).'
      : 'Box not ticked: e-mail only.';
  return (
    <>
      {consent.text ? `“${consent.text}”` : 'The disclosure was not kept'}
      <br />
      {answer}
      {later && (
        <>
          <br />
          {`${writtenLaterLabel(later.channel)}, ${formatTime(later.at)}: written consent.`}
        </>
      )}
    </>
  );
}

/** How a written consent given after the lead was stored was given. */
function writtenLaterLabel(channel: NonNullable<Lead['written_later']>['channel']) {
  switch (channel) {
    case 'chat':
      return 'Clicked Yes beside this text in the chat';
    case 'voice':
      return 'Agreed to this text in the call, whose recording the site keeps';
    case 'consent_page':
      return 'Ticked the box on the consent page';
  }
}

const backToList = () => {
  window.location.hash = 'leads';
};

export function LeadPage({ id, onError }: LeadPageProps) {
  const titleId = useId();
  const {
    value: lead,
    setValue: setLead,
    error: message,
    setError: setMessage,
  } = useLoad(api.lead, id, onError);
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // Focus the heading when the page appears and again once the lead has loaded.
  const loaded = lead !== null;
  useEffect(() => heading.current?.focus(), [loaded]);

  const mark = async (status: Status, done: string) => {
    try {
      const changed = await api.setStatus(id, status);
      setLead(changed);
      setMessage(done);
    } catch (failure) {
      setMessage(onError(failure) ?? '');
    }
  };

  const askConsent = async () => {
    try {
      const sent = await api.askConsent(id);
      setMessage(
        `Asked for written consent: an e-mail went to ${sent.sent_to} with a link to a page where they can give it (the link works until ${formatTime(sent.expires_at)}).`,
      );
    } catch (failure) {
      setMessage(onError(failure) ?? '');
    }
  };

  const remove = async () => {
    try {
      await api.remove(id);
      setConfirming(false);
      backToList();
    } catch (failure) {
      setConfirming(false);
      setMessage(onError(failure) ?? '');
    }
  };

  const back = (
    <a href="#leads" className="text-brand-700 underline">
      Back to the list
    </a>
  );

  if (!lead) {
    return (
      <section aria-labelledby={titleId}>
        {back}
        <h1
          id={titleId}
          ref={heading}
          tabIndex={-1}
          className="mt-3 text-2xl font-semibold text-slate-900 outline-none"
        >
          Lead
        </h1>
        <p role="status" className="mt-3 text-slate-700">
          {message || 'Loading…'}
        </p>
      </section>
    );
  }

  const doNotContact = lead.status === 'do_not_contact';
  /**
   * Only a number the visitor agreed to be called at, not since withdrawn, in a state the broker
   * is licensed in (selling there unlicensed breaks state law; the server's `licensed`).
   */
  const callable = lead.may_call && !doNotContact && lead.phone !== null && lead.licensed !== false;
  const recordingLink = providerLink(lead.call_recording_url);
  /** A number without written consent (oral or none), neither spam nor do not contact: the
   * visitor can be asked for it in writing, by e-mail (the server says so if it cannot go). */
  const askable =
    lead.phone !== null &&
    lead.call_consent !== 'written' &&
    lead.status !== 'spam' &&
    !doNotContact;

  return (
    <section aria-labelledby={titleId}>
      {back}
      <h1
        id={titleId}
        ref={heading}
        tabIndex={-1}
        className="mt-3 text-2xl font-semibold break-all text-slate-900 outline-none"
      >
        {lead.email}
      </h1>
      {lead.state && lead.licensed === false && (
        <p className="mt-2">
          <NotLicensedBadge state={lead.state} />
        </p>
      )}
      {doNotContact && (
        <div
          role="note"
          className="mt-4 rounded-lg border-l-4 border-red-700 bg-red-50 p-3 text-slate-900"
        >
          <p className="font-semibold">The visitor asked not to be contacted</p>
          <p className="mt-1 text-slate-800">
            Do not call, text or e-mail them. Nothing more goes out about this lead; it stays here
            for your records.
          </p>
        </div>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        {callable && lead.phone && (
          <a
            href={telHref(lead.phone)}
            aria-label={
              lead.call_consent === 'oral'
                ? `Call ${formatPhone(lead.phone)} (oral consent: dial by hand)`
                : `Call ${formatPhone(lead.phone)}`
            }
            className={buttonVariants({ className: 'md:hidden' })}
          >
            {lead.call_consent === 'oral' ? 'Call (oral consent: dial by hand)' : 'Call'}
          </a>
        )}
        {!doNotContact && (
          <a href={answerHref(lead)} className={buttonVariants({ size: 'sm' })}>
            Answer by e-mail
          </a>
        )}
        {askable && (
          <Button variant="outline" size="sm" onClick={askConsent}>
            Ask for written consent
          </Button>
        )}
        {MOVES.filter((move) => move.from.includes(lead.status)).map((move) => (
          <Button
            key={move.label}
            variant={move.to === 'spam' ? 'ghost' : 'outline'}
            size="sm"
            onClick={() => mark(move.to, move.done)}
          >
            {move.label}
          </Button>
        ))}
        <Dialog.Root open={confirming} onOpenChange={setConfirming}>
          <Dialog.Trigger asChild>
            <Button variant="ghost" size="sm">
              Delete lead
            </Button>
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
            <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl">
              <Dialog.Title className="text-lg font-semibold text-slate-900">
                Delete this lead?
              </Dialog.Title>
              <Dialog.Description className="mt-2 text-slate-700">
                {lead.email} and its delivery state will be deleted for good. {keptOnDeleting(lead)}
              </Dialog.Description>
              <div className="mt-6 flex flex-wrap justify-end gap-3">
                <Dialog.Close asChild>
                  <Button variant="ghost" size="sm">
                    Cancel
                  </Button>
                </Dialog.Close>
                <Button size="sm" onClick={remove}>
                  Delete for good
                </Button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </div>
      <p role="status" className="mt-3 min-h-6 text-slate-700">
        {message}
      </p>

      <NoteEditor lead={lead} onSaved={setLead} onError={onError} />

      <dl className="mt-4 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm">
        <Field label="Product">{productLabel(lead.product)}</Field>
        <Field label="E-mail">{lead.email}</Field>
        {lead.phone && (
          <Field label="Phone">
            <PhoneNumber lead={lead} />
          </Field>
        )}
        {lead.zip && <Field label="ZIP code">{lead.zip}</Field>}
        {lead.state && (
          <Field label="State">
            {stateName(lead.state)} ({lead.state})
          </Field>
        )}
        <Field label="Source">{sourceLabel(lead.source)}</Field>
        <Field label="Language">{languageLabel(lead.language)}</Field>
        <Field label="Received">{formatTime(lead.created_at)}</Field>
        <Field label="Status">
          {statusLabel(lead.status)}
          {lead.status_changed_at && ` (since ${formatTime(lead.status_changed_at)})`}
        </Field>
        {lead.status === 'spam' && <Field label="Why spam">{spamReason(lead.spam_reason)}</Field>}
        {deliveryChannels(lead).length === 0 && (
          <Field label="Delivery">Not forwarded (forwarding was off)</Field>
        )}
        {deliveryChannels(lead).map(([channel, delivery]) => (
          <Field key={channel} label={`Delivery: ${channel}`}>
            {`${delivery.status}, ${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`}
            {delivery.delivered_at && `, delivered ${formatTime(delivery.delivered_at)}`}
            {delivery.last_error && (
              <>
                <br />
                Last error: {delivery.last_error}
              </>
            )}
          </Field>
        ))}
        {lead.consent && (
          <Field label="Notice shown">
            {lead.consent.text ? `“${lead.consent.text}”` : 'None (no page was built)'}
            <br />
            {`${consentChannelLabel(lead.consent.channel)} on ${lead.consent.page}, ${formatTime(lead.consent.at)}`}
            {lead.consent.sha256 && (
              <>
                <br />
                <span className="font-mono text-sm break-all">SHA-256 {lead.consent.sha256}</span>
              </>
            )}
          </Field>
        )}
        {lead.consent?.phone && (
          <Field label="Consent to call">
            <PhoneConsentText
              consent={lead.consent.phone}
              spoken={lead.consent.channel === 'voice' || lead.consent.channel === 'chat'}
              later={lead.written_later}
            />
          </Field>
        )}
        {lead.user_agent && <Field label="Browser">{lead.user_agent}</Field>}
        <Field label="Lead id">
          <span className="font-mono text-sm">{lead.id}</span>
        </Field>
      </dl>

      {lead.source === 'voice' && (
        <section
          aria-labelledby={`${titleId}-call`}
          className="mt-6 rounded-2xl bg-white p-4 shadow-sm"
        >
          <h2 id={`${titleId}-call`} className="text-xl font-semibold text-slate-900">
            Voice call
          </h2>
          <dl className="mt-3 flex flex-col gap-3">
            <Field label="Call id">
              <span className="font-mono text-sm break-all">{lead.call_id}</span>
            </Field>
            <Field label="Ended">{endedText(lead)}</Field>
            {lead.call_summary && <Field label="Summary">{lead.call_summary}</Field>}
            {recordingLink && (
              <Field label="Recording">
                <a
                  href={recordingLink}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-brand-700 underline"
                >
                  Listen to the recording
                </a>
              </Field>
            )}
          </dl>
          {lead.call_transcript && (
            <>
              <h3 className="mt-4 font-semibold text-slate-900">Transcript</h3>
              <p className="mt-2 rounded-lg bg-slate-50 p-3 whitespace-pre-wrap text-slate-900">
                {lead.call_transcript}
              </p>
            </>
          )}
        </section>
      )}

      <LeadCalls leadId={lead.id} onError={onError} />

      <section
        aria-labelledby={`${titleId}-records`}
        className="mt-6 rounded-2xl bg-white p-4 shadow-sm"
      >
        <h2 id={`${titleId}-records`} className="text-xl font-semibold text-slate-900">
          Records for an auditor
        </h2>
        <p className="mt-2 text-slate-700">
          The copy to hand an auditor, in one ZIP: the lead, its consent record and the notice it
          was shown, the conversation it came from with its transcript and recording (when there is
          one), and a manifest of each file's SHA-256.
        </p>
        {/* The server names the file with the lead's id (Content-Disposition). */}
        <a
          href={api.recordsHref(lead.id)}
          download
          className={buttonVariants({ variant: 'outline', size: 'sm', className: 'mt-3' })}
        >
          Download records (ZIP)
        </a>
      </section>
    </section>
  );
}
