// The broker's hours for booked calls (`booking:` in content/site.yaml, off unless given): the
// settings the open times are computed from (wasm-core's `booking` module, on the server and in
// the page) and the booking page's texts. The build refuses what would give wrong times: a time
// zone the browsers' database does not know, reversed or overlapping hours, a slot longer than the
// span it is to fit in (docs/product.md §13).
import { z } from 'zod';

const text = z.string().trim().min(1, 'expected a non-empty text');
/** A text that says when the call is: `{when}`, the time on the broker's clock. */
const withWhen = text.includes('{when}', { message: 'expected the text to hold {when}' });

/** The weekdays as `hours` names them, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A span of a day's hours, `"09:00-12:30"`, in the broker's time zone. */
const SPAN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;
const span = z.string().regex(SPAN, 'expected a span of hours such as "09:00-12:30"');
/** A closed day, `2026-12-25`. */
const date = z.iso.date('expected a date such as 2026-12-25');

/** Minutes from midnight of a span's start and end. */
export function spanMinutes(value: string): [start: number, end: number] {
  const [, h1, m1, h2, m2] = SPAN.exec(value)!.map(Number);
  return [h1 * 60 + m1, h2 * 60 + m2];
}

/** Whether `name` is an IANA time zone (America/Chicago, UTC), as the ICU database knows them. */
export function isTimeZone(name: string): boolean {
  // Intl also takes offsets ("+05:00"), which are no place's rules.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const bookingSchema = z
  .strictObject({
    timeZone: z.string().refine(isTimeZone, 'expected an IANA time zone such as America/Chicago'),
    hours: z.strictObject(
      Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(span).optional()])) as Record<
        (typeof WEEKDAYS)[number],
        z.ZodOptional<z.ZodArray<typeof span>>
      >,
    ),
    slotMinutes: z.number().int().min(5).max(480),
    noticeHours: z
      .number()
      .int()
      .nonnegative()
      .max(24 * 30),
    daysAhead: z.number().int().min(1).max(365),
    closed: z.array(date).default([]),
    // The texts: the footer's and the quote's link, the page, the Scope of Appointment.
    link: text,
    title: text,
    intro: text,
    slotLabel: text,
    shownInZone: text.includes('{zone}', { message: 'expected the text to hold {zone}' }),
    shownInYourZone: text.includes('{zone}', { message: 'expected the text to hold {zone}' }),
    noTimes: text,
    nameLabel: text,
    emailLabel: text,
    soaHeading: text,
    soaProducts: z.strictObject({
      medicareAdvantage: text,
      partD: text,
      medicareSupplement: text,
      dentalVisionHearing: text,
    }),
    soaStatement: text.includes('{broker}', { message: 'expected the text to hold {broker}' }),
    submit: text,
    success: z.strictObject({ title: text, description: text }),
    errors: z.strictObject({ slot: text, name: text, email: text, soa: text, taken: text }),
    // The visitor's e-mails: the calendar entry's title, the confirmation (with the link to
    // cancel or move the call, after `manage`) and the reminder the day before.
    emails: z.strictObject({
      summary: text,
      subject: withWhen,
      booked: withWhen,
      manage: text,
      reminderSubject: withWhen,
      reminder: withWhen,
    }),
    // The page the confirmation's link opens: the call, cancel, move, and what became of it.
    manage: z.strictObject({
      title: text,
      booked: withWhen,
      cancel: text,
      moveLabel: text,
      move: text,
      cancelled: text,
      moved: withWhen,
      gone: text,
      unknown: text,
    }),
  })
  .superRefine((booking, context) => {
    for (const day of WEEKDAYS) {
      const spans = (booking.hours[day] ?? []).map((value, i) => ({
        i,
        value,
        minutes: spanMinutes(value),
      }));
      for (const { i, value, minutes } of spans) {
        const [start, end] = minutes;
        const path = ['hours', day, i];
        if (end <= start)
          context.addIssue({
            code: 'custom',
            path,
            input: value,
            message: 'expected a span that ends after it starts',
          });
        else if (end - start < booking.slotMinutes)
          context.addIssue({
            code: 'custom',
            path,
            input: value,
            message: `expected a span of at least slotMinutes (${booking.slotMinutes} minutes)`,
          });
      }
      const sorted = [...spans].sort((a, b) => a.minutes[0] - b.minutes[0]);
      for (const [k, { i, value, minutes }] of sorted.entries()) {
        const before = sorted[k - 1];
        if (before && minutes[0] < before.minutes[1])
          context.addIssue({
            code: 'custom',
            path: ['hours', day, i],
            input: value,
            message: `expected hours that do not overlap (${before.value})`,
          });
      }
    }
  });

export type BookingContent = z.infer<typeof bookingSchema>;
