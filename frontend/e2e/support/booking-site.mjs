// The built site with booking turned on (the example content keeps it off): open all day in UTC,
// no notice, three days ahead, the words a test gives (backend/src/routes/booking/,
// docs/product.md §13).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './server.mjs';

/** The words the booking tests set and look for, in each language. */
export const BOOKING_WORDS = {
  en: {
    title: 'Book a call',
    name: 'Full name',
    email: 'Email',
    soa: 'Part D',
    statement: 'The agent may be paid based on your enrollment.',
    zone: 'Times are in UTC.',
    done: 'We will call you.',
    errors: { slot: 'Choose a time', name: 'Write your name', email: 'Write an email' },
    soaError: 'Choose what we may talk about',
    taken: 'That time was just taken.',
    manage: {
      link: 'To cancel the call or move it, open this link:',
      cancel: 'Cancel the call',
      cancelled: 'Your call is cancelled.',
      gone: 'This link was used already.',
      unknown: 'This link does not open a booking.',
    },
  },
  es: {
    title: 'Reserve una llamada',
    name: 'Nombre completo',
    email: 'Correo electrónico',
    soa: 'Parte D',
    statement: 'El agente puede recibir un pago según su inscripción.',
    zone: 'Horas en UTC.',
    done: 'Le llamaremos.',
    errors: { slot: 'Elija una hora', name: 'Escriba su nombre', email: 'Escriba un correo' },
    soaError: 'Elija de qué podemos hablar',
    taken: 'Esa hora ya está ocupada.',
  },
};

const booking = (w) => ({
  timeZone: 'UTC',
  hours: Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ['00:00-23:30']]),
  ),
  slotMinutes: 30,
  noticeHours: 0,
  daysAhead: 3,
  closed: [],
  link: w.title,
  title: w.title,
  intro: w.title,
  slotLabel: w.title,
  shownInZone: w.zone.replace('UTC', '{zone}'),
  shownInYourZone: w.zone.replace('UTC', '{zone}'),
  noTimes: '-',
  nameLabel: w.name,
  emailLabel: w.email,
  soaHeading: w.soaError,
  soaProducts: {
    medicareAdvantage: 'Medicare Advantage',
    partD: w.soa,
    medicareSupplement: 'Medicare Supplement',
    dentalVisionHearing: 'Dental',
  },
  soaStatement: w.statement,
  submit: w.title,
  success: { title: w.title, description: w.done },
  errors: { ...w.errors, soa: w.soaError, taken: w.taken },
  emails: {
    summary: w.title,
    subject: `${w.title}: {when}`,
    booked: `${w.title}: {when}.`,
    manage: w.manage?.link ?? w.title,
    reminderSubject: `${w.title}: {when}`,
    reminder: `${w.title}: {when}.`,
  },
  manage: {
    title: w.title,
    booked: `${w.title}: {when}.`,
    cancel: w.manage?.cancel ?? w.title,
    moveLabel: w.title,
    move: w.title,
    cancelled: w.manage?.cancelled ?? w.done,
    moved: `${w.title}: {when}.`,
    gone: w.manage?.gone ?? w.done,
    unknown: w.manage?.unknown ?? w.done,
  },
});

/**
 * A copy of the built site with `booking` on in both languages' server facts, its words from
 * `words.en` and `words.es`.
 */
export function siteWithBooking(words = BOOKING_WORDS) {
  const dir = mkdtempSync(join(tmpdir(), 'booking-site-'));
  cpSync(join(repoRoot, 'frontend/dist'), dir, { recursive: true });
  for (const [language, file] of [
    ['en', '.site/site.json'],
    ['es', '.site/es/site.json'],
  ]) {
    const facts = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    writeFileSync(join(dir, file), JSON.stringify({ ...facts, booking: booking(words[language]) }));
  }
  return dir;
}
