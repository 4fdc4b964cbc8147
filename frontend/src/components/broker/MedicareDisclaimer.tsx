import { Fragment, type ReactNode } from 'react';
import { medicareDisclaimer as disclaimer } from '../../content';

/** Medicare's phone line and site, linked wherever the disclaimer names them. */
const LINKED: Record<string, string> = {
  '1-800-MEDICARE': 'tel:+18006334227',
  'Medicare.gov': 'https://www.medicare.gov/',
};

/**
 * The disclaimer's words for the variant and counts the content chose, in the page's language, or
 * `undefined` when it is off: the rule's words from wasm-core, written in by the build.
 */
export function disclaimerText(): string | undefined {
  return disclaimer.text ?? undefined;
}

function linked(text: string, linkClass: string): ReactNode[] {
  return text.split(/(1-800-MEDICARE|Medicare\.gov)/).map((part, i) =>
    LINKED[part] ? (
      <a key={i} href={LINKED[part]} className={linkClass}>
        {part}
      </a>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/**
 * The CMS third-party marketing disclaimer (42 CFR 422.2267(e)(41)), when the content turns it on:
 * `prominent` beside the quote form, otherwise in the footer's small print.
 */
export function MedicareDisclaimer({ prominent = false }: { prominent?: boolean }) {
  const text = disclaimerText();
  if (!text) return null;
  const link = prominent
    ? 'font-semibold text-brand-700 underline hover:text-brand-800'
    : 'font-semibold text-white underline';
  return prominent ? (
    <aside
      aria-labelledby="medicare-disclaimer"
      // On a phone the voice and chat buttons float over the screen's bottom right corner (about
      // 5rem high): room below the text (pb-24), so scrolled to its end none of its lines is under
      // them (e2e/floating-buttons.test.mjs). From lg the card ends left of them.
      className="mt-8 rounded-2xl border-l-4 border-brand-600 bg-slate-50 p-5 pb-24 text-slate-800 lg:pb-5"
    >
      <h3 id="medicare-disclaimer" className="font-semibold text-slate-900">
        {disclaimer.heading}
      </h3>
      <p className="mt-2">{linked(text, link)}</p>
    </aside>
  ) : (
    <p className="mx-auto mt-8 max-w-6xl text-sm text-slate-300">{linked(text, link)}</p>
  );
}
