import { Button } from '../components/ui/button';
import { QUOTE_HREF } from '../lib/quote-link';
import { hero } from '../content';

/** The gap between the headline, the text and the button (s; docs/product.md §4: 0.15 to 0.2 s). */
const HERO_STAGGER_S = 0.15;

/**
 * The hero's entrance is a CSS animation rather than a scroll-triggered reveal: it runs from the prerendered
 * HTML at first paint, so the largest text and image are not held back until JavaScript loads. The heading
 * slides in without fading: the browser does not count content painted at opacity 0 as the page's largest
 * paint, so a faded heading would leave the logo as the "largest" content and tie the metric to an image
 * request. The illustration asks for a low priority: it is a small SVG that may arrive after the text.
 */
const stagger = (step: number) => ({ animationDelay: `${step * HERO_STAGGER_S}s` });

export function HeroSection() {
  return (
    <section aria-labelledby="hero-heading" className="px-4 pt-28 pb-16 md:pt-36 md:pb-24">
      <div className="mx-auto grid max-w-6xl items-center gap-12 md:grid-cols-2">
        <div className="particle-clear">
          <h1
            id="hero-heading"
            className="enter-slide-up text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl"
            style={stagger(0)}
          >
            {hero.heading}
          </h1>
          <p className="enter-fade-up mt-6 max-w-xl text-lg text-slate-700" style={stagger(1)}>
            {hero.text}
          </p>
          <div className="enter-fade-up mt-8" style={stagger(2)}>
            <Button asChild>
              <a href={QUOTE_HREF}>{hero.cta}</a>
            </Button>
          </div>
        </div>
        <img
          src={hero.image.src}
          alt={hero.image.alt}
          width={hero.image.width}
          height={hero.image.height}
          fetchPriority="low"
          className="enter-fade-up mx-auto h-auto w-full max-w-lg"
          style={stagger(3)}
        />
      </div>
    </section>
  );
}
