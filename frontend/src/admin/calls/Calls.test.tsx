import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Booking } from '../api/api';
import { sent } from '../api/requests.test-support';
import { CallList, LeadCalls } from './Calls';

const SHA256 = '9b2cf5358a1e8e3c0d52a1f4bb0c6e1f3a7d9e2b4c6f8a0b1c3d5e7f9a1b3c5d';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A booking `from` ms from now, half an hour long, signed by `name`. */
function booking(id: string, from: number, name: string, status = 'booked'): Booking {
  const start = new Date(Date.now() + from);
  return {
    id,
    lead_id: `0190d7a0-0000-7000-8000-00000000000${id}`,
    starts_at: start.toISOString(),
    ends_at: new Date(start.getTime() + HOUR / 2).toISOString(),
    status: status as Booking['status'],
    soa: {
      products: ['medicare_advantage', 'part_d'],
      signature: name,
      sha256: SHA256,
      at: new Date().toISOString(),
      channel: 'form_without_script',
    },
  };
}

/** The server is the one part out of reach here: it answers as the admin API does. */
function answering(body: unknown) {
  const fetch = vi.fn(
    async (_request: Request) => new Response(JSON.stringify(body), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the calls', () => {
  it("lists today's, upcoming and past calls, each with its Scope of Appointment and lead", async () => {
    // Noon, so that an hour either way is still today.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 2, 9, 12) });
    answering({
      bookings: [
        booking('4', 3 * DAY, 'Later Lee'),
        booking('3', 2 * DAY, 'Sooner Sue', 'cancelled'),
        booking('2', HOUR, 'Today Tom'),
        booking('1', -2 * DAY, 'Past Pat'),
      ],
    });
    render(<CallList onError={() => null} />);
    const today = await screen.findByRole('region', { name: 'Today (1)' });
    expect(within(today).getAllByRole('listitem')).toHaveLength(1);
    expect(today).toHaveTextContent('Booked · Today Tom');
    const upcoming = screen.getByRole('region', { name: 'Upcoming (2)' });
    const names = within(upcoming)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(names[0]).toMatch(/Cancelled · Sooner Sue/);
    expect(names[1]).toMatch(/Booked · Later Lee/);
    const past = screen.getByRole('region', { name: 'Past (1)' });
    expect(within(past).getByText('Medicare Advantage, Part D')).toBeInTheDocument();
    expect(within(past).getByRole('link', { name: 'Its lead' })).toHaveAttribute(
      'href',
      '#lead/0190d7a0-0000-7000-8000-000000000001',
    );
    expect(within(past).getByText('9b2cf5358a1e…')).toHaveAttribute('title', SHA256);
  });

  it("asks for one lead's calls on its page, and shows nothing when it has none", async () => {
    const fetch = answering({ bookings: [booking('5', DAY, 'Ana Ruiz')] });
    const { unmount } = render(<LeadCalls leadId="abc" onError={() => null} />);
    const calls = await screen.findByRole('region', { name: 'Booked calls' });
    expect(within(calls).getAllByText(/Ana Ruiz/)).toHaveLength(2);
    expect(within(calls).queryByRole('link', { name: 'Its lead' })).toBeNull();
    expect((await sent(fetch)).map(({ path }) => path)).toContain(
      '/api/admin/bookings?lead_id=abc',
    );
    unmount();
    answering({ bookings: [] });
    const { container } = render(<LeadCalls leadId="abc" onError={() => null} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container).toBeEmptyDOMElement();
  });
});
