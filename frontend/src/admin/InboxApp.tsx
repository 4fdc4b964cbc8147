import { useCallback, useEffect, useState } from 'react';
import { Button } from '../components/ui/button';
import { brand } from '../content';
import { api, ApiError, emptyFilter, type Filter } from './api/api';
import { CallList } from './calls/Calls';
import { ConversationList, ConversationPage } from './conversations/Conversations';
import { LeadList } from './list/LeadList';
import { LeadPage } from './lead/LeadPage';
import { SignIn } from './sign-in/SignIn';

type Session = 'checking' | 'signed-out' | 'signed-in';

/**
 * What the hash shows: `#lead/<id>` a lead's page, `#conversations` the kept conversations,
 * `#conversation/<call id>` one, `#calls` the booked calls, `#spam` the list filtered to spam
 * (the lead e-mails' daily spam count links there), anything else the list of leads; the back
 * button works.
 */
type View =
  | { kind: 'leads' }
  | { kind: 'calls' }
  | { kind: 'lead'; id: string }
  | { kind: 'conversations' }
  | { kind: 'conversation'; callId: string };

function viewInHash(): View {
  const hash = window.location.hash;
  const lead = /^#lead\/([0-9a-f-]+)$/i.exec(hash);
  if (lead) return { kind: 'lead', id: lead[1] };
  if (hash === '#conversations') return { kind: 'conversations' };
  if (hash === '#calls') return { kind: 'calls' };
  const conversation = /^#conversation\/(.+)$/.exec(hash);
  if (conversation) {
    try {
      return { kind: 'conversation', callId: decodeURIComponent(conversation[1]) };
    } catch {
      return { kind: 'conversations' };
    }
  }
  return { kind: 'leads' };
}

/** The list's filter as the hash asks: `#spam` shows what was held as spam. */
function filterInHash(filter: Filter): Filter {
  return window.location.hash === '#spam' ? { ...emptyFilter, status: 'spam' } : filter;
}

export function InboxApp() {
  const [session, setSession] = useState<Session>('checking');
  const [notice, setNotice] = useState('');
  const [view, setView] = useState(viewInHash);
  const [filter, setFilter] = useState<Filter>(() => filterInHash(emptyFilter));

  useEffect(() => {
    const onHash = () => {
      setView(viewInHash());
      setFilter(filterInHash);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    api.whoAmI().then(
      ({ via }) => setSession(via ? 'signed-in' : 'signed-out'),
      () => setSession('signed-out'),
    );
  }, []);

  /** Every failed call comes here: a 401 means the session ended. */
  const onError = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) {
      setNotice('Your session has ended. Please sign in again.');
      setSession('signed-out');
      return null;
    }
    return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
  }, []);

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setNotice('You are signed out.');
    setSession('signed-out');
  };

  const signOutEverywhere = async () => {
    try {
      await api.signOutEverywhere();
      setNotice('You are signed out on every device.');
      setSession('signed-out');
    } catch (error) {
      const message = onError(error);
      // A 401 (already signed out) was handled; anything else leaves the sessions as they were.
      if (message !== null) setNotice(`Not signed out everywhere: ${message}`);
    }
  };

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <p className="text-lg font-semibold text-brand-700">
            {brand.name} <span className="text-slate-700">Inbox</span>
          </p>
          {session === 'signed-in' && (
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant="ghost"
                size="sm"
                className="whitespace-nowrap"
                onClick={signOutEverywhere}
              >
                Sign out everywhere
              </Button>
              <Button
                variant="outline"
                size="sm"
                className="shrink-0 whitespace-nowrap"
                onClick={signOut}
              >
                Sign out
              </Button>
            </div>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        {session === 'checking' && <p role="status">Loading…</p>}
        {session === 'signed-out' && (
          <SignIn
            notice={notice}
            onSignedIn={() => {
              setNotice('');
              setSession('signed-in');
            }}
          />
        )}
        {session === 'signed-in' && notice && (
          <p role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-slate-900">
            {notice}
          </p>
        )}
        {session === 'signed-in' && (
          <nav aria-label="Inbox" className="mb-4 flex gap-4">
            <a href="#leads" className="text-brand-700 underline">
              Leads
            </a>
            <a href="#conversations" className="text-brand-700 underline">
              Conversations
            </a>
            <a href="#calls" className="text-brand-700 underline">
              Calls
            </a>
          </nav>
        )}
        {/* Each lead and conversation a page of its own: none shows another's while it loads. */}
        {session === 'signed-in' && view.kind === 'lead' && (
          <LeadPage key={view.id} id={view.id} onError={onError} />
        )}
        {session === 'signed-in' && view.kind === 'calls' && <CallList onError={onError} />}
        {session === 'signed-in' && view.kind === 'conversations' && (
          <ConversationList onError={onError} />
        )}
        {session === 'signed-in' && view.kind === 'conversation' && (
          <ConversationPage key={view.callId} callId={view.callId} onError={onError} />
        )}
        {session === 'signed-in' && view.kind === 'leads' && (
          <LeadList filter={filter} onFilter={setFilter} onError={onError} />
        )}
      </main>
    </div>
  );
}
