import './index.css';
import { showCurrentYear } from './components/layout/current-year';
import { enhanceQuoteLinks } from './lib/quote-link';
import { afterFirstPaint } from './lib/after-first-paint';
import { revealOnScroll } from './lib/reveal-on-scroll';

// The prerendered page is complete HTML. These small enhancements need no React; only the
// interactive parts (the islands) load it, after the first paint.
showCurrentYear();
enhanceQuoteLinks();
revealOnScroll();
afterFirstPaint(() => {
  import('./islands/mount').then(
    ({ mountIslands }) => mountIslands(),
    (error: unknown) => console.error('The islands could not load', error),
  );
});
