import { clsx } from 'clsx';
import { useState } from 'react';
import { Reveal } from '../components/motion/Reveal';
import { Avatar } from '../components/ui/avatar';
import { testimonials } from '../content';

/** Three quotes, always all visible; the pager dots only move the highlight (docs/product.md §4). */
export function TestimonialsSection() {
  const [active, setActive] = useState(0);
  return (
    <section aria-labelledby="testimonials-heading" className="bg-slate-100 px-4 py-20">
      <div className="mx-auto max-w-6xl">
        <Reveal>
          <h2
            id="testimonials-heading"
            className="text-center text-3xl font-bold text-slate-900 sm:text-4xl"
          >
            {testimonials.heading}
          </h2>
        </Reveal>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {testimonials.items.map((item, index) => (
            <li key={item.name}>
              <Reveal delay={index * 0.1} className="h-full">
                <figure
                  data-active={index === active}
                  className={clsx(
                    'flex h-full flex-col rounded-2xl bg-white p-6 shadow-md ring-1 transition-shadow',
                    index === active ? 'shadow-xl ring-2 ring-brand-700' : 'ring-slate-200',
                  )}
                >
                  <blockquote className="flex-1 text-slate-800">
                    <p>“{item.text}”</p>
                  </blockquote>
                  <figcaption className="mt-6 flex items-center gap-3">
                    <Avatar src={item.image} name={item.name} size={testimonials.portraitSize} />
                    <span>
                      <span className="block font-semibold text-slate-900">{item.name}</span>
                      <span className="block text-sm text-slate-700">{item.role}</span>
                    </span>
                  </figcaption>
                </figure>
              </Reveal>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex justify-center gap-1">
          {testimonials.items.map((item, index) => (
            <button
              key={item.name}
              type="button"
              aria-label={`${testimonials.dotLabel} ${index + 1}`}
              aria-pressed={index === active}
              onClick={() => setActive(index)}
              className="group inline-flex h-11 w-11 items-center justify-center rounded-full focus-visible:outline-3 focus-visible:outline-brand-600"
            >
              <span
                className={clsx(
                  'block h-3 rounded-full transition-all',
                  index === active
                    ? 'w-8 bg-brand-700'
                    : 'w-3 bg-slate-500 group-hover:bg-slate-700',
                )}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
