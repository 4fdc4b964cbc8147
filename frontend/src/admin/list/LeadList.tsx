import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { buttonVariants } from '../../components/ui/button-variants';
import { productOptions } from '../../content';
import { api, deliveryChannels, emptyFilter, type Filter, type ListedLead } from '../api/api';
import {
  formatTime,
  languageLabel,
  productLabel,
  sourceLabel,
  statusLabel,
} from '../shared/format';
import { NotLicensedBadge } from '../shared/NotLicensedBadge';
import { STATES, stateName } from '../shared/states';

interface LeadListProps {
  filter: Filter;
  onFilter: (filter: Filter) => void;
  /** Reports a failed call; returns the message to show, or null when it was handled. */
  onError: (error: unknown) => string | null;
}

const fieldClass =
  'h-11 rounded-lg border border-slate-400 bg-white px-3 text-base focus-visible:outline-3 focus-visible:outline-brand-600';

function deliveryText(lead: ListedLead): string {
  const channels = deliveryChannels(lead);
  if (channels.length === 0) return 'Not forwarded';
  return channels
    .map(([channel, { status, attempts }]) => {
      const tries =
        status === 'delivered' ? '' : ` (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`;
      return `${channel}: ${status}${tries}`;
    })
    .join(', ');
}

export function LeadList({ filter, onFilter, onError }: LeadListProps) {
  const id = useId();
  const [draft, setDraft] = useState(filter);
  // The cursors of the pages before this one, for "Previous page".
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [rows, setRows] = useState<ListedLead[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState('');
  // On a phone the list comes first and the filters open from a button; wider, they stay open.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = Object.values(filter).filter((value) => value.trim()).length;
  const heading = useRef<HTMLHeadingElement>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    let current = true;
    api.list(filter, cursor).then(
      (page) => {
        if (!current) return;
        setRows(page.quote_requests);
        setNext(page.next_cursor);
        setError('');
      },
      (failure: unknown) => {
        if (current) setError(onError(failure) ?? '');
      },
    );
    return () => {
      current = false;
    };
  }, [filter, cursor, onError]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setCursors([null]);
    setFiltersOpen(false);
    onFilter({ ...draft });
  };
  const clear = () => {
    setDraft(emptyFilter);
    setCursors([null]);
    onFilter(emptyFilter);
  };
  const set = (key: keyof Filter) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));
  const field = (key: keyof Filter) => `${id}-${key}`;

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1
          id={`${id}-title`}
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-semibold text-slate-900 outline-none"
        >
          Leads
        </h1>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            size="sm"
            className="md:hidden"
            aria-expanded={filtersOpen}
            aria-controls={`${id}-filters`}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {activeFilters > 0 ? `Filters (${activeFilters})` : 'Filters'}
          </Button>
          {/* The server names the file with the day (Content-Disposition). */}
          <a
            href={api.csvHref(filter)}
            download
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            Download CSV
          </a>
        </div>
      </div>

      <form
        id={`${id}-filters`}
        onSubmit={apply}
        aria-label="Filter leads"
        className={`mt-4 gap-3 rounded-2xl bg-white p-4 shadow-sm sm:grid-cols-2 md:grid lg:grid-cols-3 ${filtersOpen ? 'grid' : 'hidden'}`}
      >
        <div className="flex flex-col gap-1 sm:col-span-2 lg:col-span-3">
          <label htmlFor={field('email')} className="font-medium text-slate-800">
            Search by e-mail
          </label>
          <input
            id={field('email')}
            type="search"
            value={draft.email}
            onChange={set('email')}
            className={fieldClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('product')} className="font-medium text-slate-800">
            Product
          </label>
          <select
            id={field('product')}
            value={draft.product}
            onChange={set('product')}
            className={fieldClass}
          >
            <option value="">Any product</option>
            {productOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('source')} className="font-medium text-slate-800">
            Source
          </label>
          <select
            id={field('source')}
            value={draft.source}
            onChange={set('source')}
            className={fieldClass}
          >
            <option value="">Every source</option>
            <option value="web">Web form</option>
            <option value="voice">Voice call</option>
            <option value="chat">Chat</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('status')} className="font-medium text-slate-800">
            Status
          </label>
          <select
            id={field('status')}
            value={draft.status}
            onChange={set('status')}
            className={fieldClass}
          >
            <option value="">Every lead but spam</option>
            <option value="new">New</option>
            <option value="contacted">Contacted</option>
            <option value="do_not_contact">Do not contact</option>
            <option value="spam">Spam</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('state')} className="font-medium text-slate-800">
            State
          </label>
          <select
            id={field('state')}
            value={draft.state}
            onChange={set('state')}
            className={fieldClass}
          >
            <option value="">Any state</option>
            {STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name} ({code})
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('since')} className="font-medium text-slate-800">
            From
          </label>
          <input
            id={field('since')}
            type="date"
            value={draft.since}
            onChange={set('since')}
            className={fieldClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('until')} className="font-medium text-slate-800">
            To
          </label>
          <input
            id={field('until')}
            type="date"
            value={draft.until}
            onChange={set('until')}
            className={fieldClass}
          />
        </div>
        <div className="flex items-end gap-3">
          <Button type="submit">Apply</Button>
          <Button type="button" variant="ghost" onClick={clear}>
            Clear
          </Button>
        </div>
      </form>

      <p role="status" className="mt-4 text-slate-700">
        {error ||
          (rows === null
            ? 'Loading leads…'
            : rows.length === 0
              ? 'No leads match.'
              : `${rows.length} ${rows.length === 1 ? 'lead' : 'leads'} on this page.`)}
      </p>

      {rows && rows.length > 0 && (
        <>
          <ul className="mt-3 flex flex-col gap-3 md:hidden" aria-label="Leads">
            {rows.map((lead) => (
              <li key={lead.id} className="rounded-2xl bg-white p-4 shadow-sm">
                <a
                  href={`#lead/${lead.id}`}
                  className="font-semibold break-all text-brand-700 underline"
                >
                  {lead.email}
                </a>
                <p className="mt-1 text-slate-800">
                  {productLabel(lead.product)} · {sourceLabel(lead.source)} ·{' '}
                  {languageLabel(lead.language)}
                </p>
                {lead.state && (
                  <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-800">
                    <span>{stateName(lead.state)}</span>
                    {lead.licensed === false && <NotLicensedBadge state={lead.state} />}
                  </p>
                )}
                <p className="text-slate-700">
                  {formatTime(lead.created_at)} · {statusLabel(lead.status)} · {deliveryText(lead)}
                </p>
              </li>
            ))}
          </ul>
          <table className="mt-3 hidden w-full border-collapse overflow-hidden rounded-2xl bg-white text-left shadow-sm md:table">
            <caption className="sr-only">Leads, newest first</caption>
            <thead className="bg-slate-100 text-slate-800">
              <tr>
                <th scope="col" className="px-3 py-2">
                  E-mail
                </th>
                <th scope="col" className="px-3 py-2">
                  Product
                </th>
                <th scope="col" className="px-3 py-2">
                  Source
                </th>
                <th scope="col" className="px-3 py-2">
                  Language
                </th>
                <th scope="col" className="px-3 py-2">
                  State
                </th>
                <th scope="col" className="px-3 py-2">
                  Received
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
                <th scope="col" className="px-3 py-2">
                  Delivery
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((lead) => (
                <tr key={lead.id} className="border-t border-slate-200">
                  <td className="px-3 py-2">
                    <a href={`#lead/${lead.id}`} className="break-all text-brand-700 underline">
                      {lead.email}
                    </a>
                  </td>
                  <td className="px-3 py-2">{productLabel(lead.product)}</td>
                  <td className="px-3 py-2">{sourceLabel(lead.source)}</td>
                  <td className="px-3 py-2">{languageLabel(lead.language)}</td>
                  <td className="px-3 py-2">
                    {lead.state && (
                      <span className="flex flex-col items-start gap-1">
                        {stateName(lead.state)}
                        {lead.licensed === false && <NotLicensedBadge state={lead.state} />}
                      </span>
                    )}
                  </td>
                  <td className="px-3 py-2">{formatTime(lead.created_at)}</td>
                  <td className="px-3 py-2">{statusLabel(lead.status)}</td>
                  <td className="px-3 py-2">{deliveryText(lead)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <nav aria-label="Pages" className="mt-4 flex gap-3">
        {cursors.length > 1 && (
          <Button variant="outline" size="sm" onClick={() => setCursors((c) => c.slice(0, -1))}>
            Previous page
          </Button>
        )}
        {next && (
          <Button variant="outline" size="sm" onClick={() => setCursors((c) => [...c, next])}>
            Next page
          </Button>
        )}
      </nav>
    </section>
  );
}
