import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
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
import { Cell, DataTable, Row } from '../shared/DataTable';
import { NotLicensedBadge } from '../shared/NotLicensedBadge';
import { STATES, stateName } from '../shared/states';
import { type OnError } from '../shared/load';

interface LeadListProps {
  filter: Filter;
  onFilter: (filter: Filter) => void;
  onError: OnError;
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
  const labelled = (key: keyof Filter, label: string, control: ReactNode, className = '') => (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={field(key)} className="font-medium text-slate-800">
        {label}
      </label>
      {control}
    </div>
  );
  const input = (key: keyof Filter, label: string, type: 'search' | 'date', className = '') =>
    labelled(
      key,
      label,
      <input
        id={field(key)}
        type={type}
        value={draft[key]}
        onChange={set(key)}
        className={fieldClass}
      />,
      className,
    );
  /** A filter of a few values: `options` are [value, label], after "any" (no filter). */
  const select = (
    key: keyof Filter,
    label: string,
    any: string,
    options: readonly (readonly [string, string])[],
  ) =>
    labelled(
      key,
      label,
      <select id={field(key)} value={draft[key]} onChange={set(key)} className={fieldClass}>
        <option value="">{any}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>,
    );

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
        {input('email', 'Search by e-mail', 'search', 'sm:col-span-2 lg:col-span-3')}
        {select(
          'product',
          'Product',
          'Any product',
          productOptions.map(({ value, label }) => [value, label]),
        )}
        {select('source', 'Source', 'Every source', [
          ['web', 'Web form'],
          ['voice', 'Voice call'],
          ['chat', 'Chat'],
        ])}
        {select('status', 'Status', 'Every lead but spam', [
          ['new', 'New'],
          ['contacted', 'Contacted'],
          ['do_not_contact', 'Do not contact'],
          ['spam', 'Spam'],
        ])}
        {select(
          'state',
          'State',
          'Any state',
          STATES.map(([code, name]) => [code, `${name} (${code})`]),
        )}
        {input('since', 'From', 'date')}
        {input('until', 'To', 'date')}
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
          <DataTable
            caption="Leads, newest first"
            columns={[
              'E-mail',
              'Product',
              'Source',
              'Language',
              'State',
              'Received',
              'Status',
              'Delivery',
            ]}
          >
            {rows.map((lead) => (
              <Row key={lead.id}>
                <Cell>
                  <a href={`#lead/${lead.id}`} className="break-all text-brand-700 underline">
                    {lead.email}
                  </a>
                </Cell>
                <Cell>{productLabel(lead.product)}</Cell>
                <Cell>{sourceLabel(lead.source)}</Cell>
                <Cell>{languageLabel(lead.language)}</Cell>
                <Cell>
                  {lead.state && (
                    <span className="flex flex-col items-start gap-1">
                      {stateName(lead.state)}
                      {lead.licensed === false && <NotLicensedBadge state={lead.state} />}
                    </span>
                  )}
                </Cell>
                <Cell>{formatTime(lead.created_at)}</Cell>
                <Cell>{statusLabel(lead.status)}</Cell>
                <Cell>{deliveryText(lead)}</Cell>
              </Row>
            ))}
          </DataTable>
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
