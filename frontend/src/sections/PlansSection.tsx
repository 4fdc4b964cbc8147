import { Reveal } from '../components/motion/Reveal';
import { plans } from '../content';
import { PlanIcon } from './PlanIcon';

const CARD_STAGGER_S = 0.1;

export function PlansSection() {
  return (
    <section aria-labelledby="plans-heading" className="px-4 py-20">
      <div className="mx-auto max-w-6xl">
        <Reveal>
          <h2
            id="plans-heading"
            className="particle-clear mx-auto w-fit text-center text-3xl font-bold text-slate-900 sm:text-4xl"
          >
            {plans.heading}
          </h2>
        </Reveal>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {plans.items.map((plan, index) => (
            <li key={plan.title}>
              <Reveal delay={index * CARD_STAGGER_S} className="h-full">
                <article className="flex h-full flex-col rounded-2xl bg-white p-6 shadow-md ring-1 ring-slate-200">
                  <span className="inline-flex h-14 w-14 items-center justify-center rounded-xl bg-brand-700 text-white">
                    <PlanIcon name={plan.icon} />
                  </span>
                  <h3 className="mt-5 text-xl font-semibold text-slate-900">{plan.title}</h3>
                  <p className="mt-3 flex-1 text-slate-700">{plan.description}</p>
                  <a
                    href={plan.link.href}
                    className="mt-5 inline-flex self-start rounded-md font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                  >
                    {plan.link.label}
                    <span className="sr-only">
                      {' '}
                      {plans.learnMoreAbout} {plan.title}
                    </span>
                  </a>
                </article>
              </Reveal>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
