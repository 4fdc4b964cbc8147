import { useState, type CSSProperties } from 'react';
import { Reveal } from '../components/motion/Reveal';
import { PauseIcon, PlayIcon } from '../components/ui/first-screen-icons';
import { partners } from '../content';

/** One full loop of the strip (s, linear; docs/product.md §9). */
const PARTNER_STRIP_LOOP_S = 20;
const loop = { '--strip-loop': `${PARTNER_STRIP_LOOP_S}s` } as CSSProperties;

/**
 * The partner logos scroll endlessly: the list is rendered twice and the track moves by half its
 * width per loop. The copy is hidden from assistive technology. The button pauses it (WCAG 2.2.2),
 * and prefers-reduced-motion stops it (index.css).
 */
export function PartnerStrip() {
  const [paused, setPaused] = useState(false);
  const copies = [...partners.items, ...partners.items];
  return (
    <section aria-label={partners.label} className="border-y border-slate-200 bg-white/70 py-8">
      <Reveal className="mx-auto flex max-w-6xl items-center gap-4 px-4">
        <div className="partner-strip-mask relative flex-1 overflow-hidden">
          <ul
            data-paused={paused}
            className="partner-strip flex w-max items-center gap-12"
            style={loop}
          >
            {copies.map((partner, index) => {
              const isCopy = index >= partners.items.length;
              return (
                <li key={index} aria-hidden={isCopy || undefined} className="shrink-0">
                  <img
                    src={partner.logo}
                    alt={isCopy ? '' : partner.name}
                    width={partners.logoWidth}
                    height={partners.logoHeight}
                    loading="lazy"
                    decoding="async"
                  />
                </li>
              );
            })}
          </ul>
        </div>
        <button
          type="button"
          onClick={() => setPaused((p) => !p)}
          aria-label={paused ? partners.play : partners.pause}
          className="partner-strip-toggle inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-800 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600"
        >
          {paused ? (
            <PlayIcon aria-hidden="true" className="h-5 w-5" />
          ) : (
            <PauseIcon aria-hidden="true" className="h-5 w-5" />
          )}
        </button>
      </Reveal>
    </section>
  );
}
