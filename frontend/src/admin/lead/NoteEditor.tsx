import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { api, type Lead } from '../api/api';
import { type OnError } from '../shared/load';

/** The server keeps at most this many characters (`MAX_NOTE_CHARS`). */
const MAX_NOTE_CHARS = 2000;

interface NoteEditorProps {
  lead: Lead;
  onSaved: (lead: Lead) => void;
  onError: OnError;
}

/** The broker's free-text note on a lead, kept with it (and in the CSV). */
export function NoteEditor({ lead, onSaved, onError }: NoteEditorProps) {
  const id = useId();
  const saved = lead.note ?? '';
  const [draft, setDraft] = useState(saved);
  const [state, setState] = useState<'idle' | 'saving'>('idle');
  const [message, setMessage] = useState('');
  const changed = draft.trim() !== saved;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setState('saving');
    try {
      const updated = await api.setNote(lead.id, draft);
      onSaved(updated);
      setDraft(updated.note ?? '');
      setMessage(updated.note ? 'Note saved.' : 'Note removed.');
    } catch (failure) {
      // The draft stays in the field, so nothing typed is lost.
      setMessage(onError(failure) ?? '');
    } finally {
      setState('idle');
    }
  };

  return (
    <form onSubmit={save} className="mt-2 flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm">
      <label htmlFor={`${id}-note`} className="font-medium text-slate-800">
        Note
      </label>
      <textarea
        id={`${id}-note`}
        value={draft}
        maxLength={MAX_NOTE_CHARS}
        rows={3}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="For example: call back Tuesday after 5 pm"
        className="rounded-lg border border-slate-400 px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-brand-600"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={!changed || state === 'saving'}>
          {state === 'saving' ? 'Saving…' : 'Save note'}
        </Button>
        <p role="status" className="text-slate-700">
          {message}
        </p>
      </div>
    </form>
  );
}
