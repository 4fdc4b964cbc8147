import { type ReactNode } from 'react';
import { api, type Booking } from '../api/api';
import { consentChannelLabel, formatTime, shortHash } from '../shared/format';
import { Alert, ListPage } from '../shared/ListPage';
import { useLoad, type OnError } from '../shared/load';

/** The Scope of Appointment's product types as the booking page offers them (docs/product.md §13). */
const PRODUCTS: Record<string, string> = {
  medicare_advantage: 'Medicare Advantage',
  part_d: 'Part D',
  medicare_supplement: 'Medicare Supplement',
  dental_vision_hearing: 'Dental, vision and hearing',
};

const productsText = (products: string[]) =>
  products.map((product) => PRODUCTS[product] ?? product).join(', ');

const endTime = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** `Mar 9, 2026, 10:30 AM – 11:00 AM`, in the reader's own time zone. */
function callTime(booking: Booking): string {
  const end = new Date(booking.ends_at);
  const until = Number.isNaN(end.getTime()) ? '' : ` – ${endTime.format(end)}`;
  return `${formatTime(booking.starts_at)}${until}`;
}

interface Props {
  onError: OnError;
}

/** The bookings of `leadId` (all when none), loaded once; an error in words. */
function useBookings(onError: OnError, leadId?: string) {
  const { value, error } = useLoad(api.bookings, leadId, onError);
  return { rows: value?.bookings ?? null, error };
}

/** One booking's Scope of Appointment, as signed. */
function Soa({ booking }: { booking: Booking }) {
  const soa = booking.soa;
  if (!soa) return <p className="mt-1 text-sm text-slate-700">No Scope of Appointment.</p>;
  return (
    <dl className="mt-2 grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
      <dt className="font-medium text-slate-700">To discuss</dt>
      <dd>{productsText(soa.products)}</dd>
      <dt className="font-medium text-slate-700">Signed by</dt>
      <dd>{soa.signature}</dd>
      <dt className="font-medium text-slate-700">Signed</dt>
      <dd>{`${formatTime(soa.at)}, ${consentChannelLabel(soa.channel)}`}</dd>
      {soa.sha256 && (
        <>
          <dt className="font-medium text-slate-700">Statement SHA-256</dt>
          <dd className="font-mono break-all" title={soa.sha256}>
            {shortHash(soa.sha256)}
          </dd>
        </>
      )}
    </dl>
  );
}

/** A booking in a list: its time, whether it was cancelled, its signature, and its lead. */
function Call({ booking, withLead }: { booking: Booking; withLead: boolean }) {
  const cancelled = booking.status === 'cancelled';
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm">
      <p className={cancelled ? 'font-semibold text-slate-700 line-through' : 'font-semibold'}>
        {callTime(booking)}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {cancelled ? 'Cancelled' : 'Booked'}
        {booking.soa && ` · ${booking.soa.signature}`}
        {withLead && (
          <>
            {' · '}
            <a href={`#lead/${booking.lead_id}`} className="text-brand-700 underline">
              Its lead
            </a>
          </>
        )}
      </p>
      <Soa booking={booking} />
    </li>
  );
}

function Group({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  children: ReactNode[];
}) {
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {`${title} (${children.length})`}
      </h2>
      {children.length === 0 ? (
        <p className="mt-2 text-slate-700">{empty}</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">{children}</ul>
      )}
    </section>
  );
}

/** Whether two times fall on the same day on the reader's calendar. */
const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * `#calls`: the booked calls (GET /api/admin/bookings) today, to come and past, on the reader's
 * clock: today's and those to come soonest first, the past latest first; each with its Scope of
 * Appointment and its lead.
 */
export function CallList({ onError }: Props) {
  const { rows, error } = useBookings(onError);
  const now = new Date();
  const starts = (booking: Booking) => new Date(booking.starts_at);
  const byTime = (a: Booking, b: Booking) => starts(a).getTime() - starts(b).getTime();
  const today = (rows ?? []).filter((b) => sameDay(starts(b), now)).sort(byTime);
  const upcoming = (rows ?? []).filter((b) => !sameDay(starts(b), now) && starts(b) > now);
  const past = (rows ?? []).filter((b) => !sameDay(starts(b), now) && starts(b) < now);
  const call = (booking: Booking) => <Call key={booking.id} booking={booking} withLead />;
  return (
    <ListPage
      id="calls-heading"
      title="Calls"
      intro="The calls visitors booked, with the Scope of Appointment each signed; times on this device's clock."
      error={error}
      loading={rows === null}
    >
      {rows && (
        <>
          <Group id="calls-today" title="Today" empty="No call today.">
            {today.map(call)}
          </Group>
          <Group id="calls-upcoming" title="Upcoming" empty="No call to come.">
            {upcoming.sort(byTime).map(call)}
          </Group>
          <Group id="calls-past" title="Past" empty="No past call.">
            {past.sort((a, b) => byTime(b, a)).map(call)}
          </Group>
        </>
      )}
    </ListPage>
  );
}

/** A lead's page: its bookings, each with its Scope of Appointment; nothing when it has none. */
export function LeadCalls({ leadId, onError }: Props & { leadId: string }) {
  const { rows, error } = useBookings(onError, leadId);
  if (!error && !rows?.length) return null;
  return (
    <section
      aria-labelledby={`calls-of-${leadId}`}
      className="mt-6 rounded-2xl bg-white p-4 shadow-sm"
    >
      <h2 id={`calls-of-${leadId}`} className="text-xl font-semibold text-slate-900">
        Booked calls
      </h2>
      <Alert error={error} />
      <ul className="mt-3 flex flex-col gap-3">
        {rows?.map((booking) => (
          <Call key={booking.id} booking={booking} withLead={false} />
        ))}
      </ul>
    </section>
  );
}
