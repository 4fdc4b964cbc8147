import { MedicareDisclaimer } from '../components/broker/MedicareDisclaimer';
import { Reveal } from '../components/motion/Reveal';
import { quoteSection as text } from '../content';
import { Island } from '../islands/Island';

/** Static heading and text around the form, the one interactive part (the quote-form island). */
export function QuoteSection() {
  return (
    <section aria-labelledby="quote-heading" className="px-4 py-20">
      <Reveal className="mx-auto max-w-4xl rounded-3xl bg-white/90 p-8 shadow-xl ring-1 ring-slate-200 sm:p-12">
        <h2
          id="quote-heading"
          className="text-center text-3xl font-bold text-slate-900 sm:text-4xl"
        >
          {text.heading}
        </h2>
        <p className="mx-auto mt-4 mb-8 max-w-2xl text-center text-slate-700">{text.subtitle}</p>
        <Island name="quote-form" />
        <MedicareDisclaimer prominent />
      </Reveal>
    </section>
  );
}
