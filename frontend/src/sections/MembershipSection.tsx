import { CheckCircle2 } from 'lucide-react';
import { Reveal } from '../components/motion/Reveal';
import { Button } from '../components/ui/button';
import { membership } from '../content';
import { QUOTE_HREF } from '../lib/quote-link';

export function MembershipSection() {
  return (
    <section aria-labelledby="membership-heading" className="px-4 py-20">
      <Reveal className="mx-auto max-w-6xl">
        <div className="particle-clear w-fit max-w-2xl">
          <p className="text-sm font-bold tracking-widest text-brand-700">{membership.eyebrow}</p>
          <h2
            id="membership-heading"
            className="mt-3 text-3xl font-bold text-slate-900 sm:text-4xl"
          >
            {membership.heading}
          </h2>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {membership.benefits.map((benefit) => (
            <li
              key={benefit.title}
              className="rounded-2xl bg-white p-6 shadow-md ring-1 ring-slate-200"
            >
              <CheckCircle2 aria-hidden="true" width={28} height={28} className="text-accent-700" />
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{benefit.title}</h3>
              <p className="mt-2 text-slate-700">{benefit.text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-10">
          <Button asChild>
            <a href={QUOTE_HREF}>{membership.cta}</a>
          </Button>
        </div>
      </Reveal>
    </section>
  );
}
