import { lazy, Suspense } from 'react';
import { Reveal } from '../components/motion/Reveal';
import { quoteSection as text } from '../content';

// The form (Radix Select and its positioning engine) is below the fold: its code loads after
// first paint while the prerendered form is already on screen.
const QuoteForm = lazy(() => import('../features/quote/QuoteForm'));

export function QuoteSection() {
  return (
    <section id={text.id} aria-labelledby="quote-heading" className="px-4 py-20">
      <Reveal className="mx-auto max-w-4xl rounded-3xl bg-white/90 p-8 shadow-xl ring-1 ring-slate-200 sm:p-12">
        <h2 id="quote-heading" className="text-center text-3xl font-bold text-slate-900 sm:text-4xl">
          {text.heading}
        </h2>
        <p className="mx-auto mt-4 mb-8 max-w-2xl text-center text-slate-700">{text.subtitle}</p>
        <Suspense>
          <QuoteForm />
        </Suspense>
      </Reveal>
    </section>
  );
}
