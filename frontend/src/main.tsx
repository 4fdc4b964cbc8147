import './index.css';
import { showCurrentYear } from './components/layout/current-year';
import { enhanceQuoteLinks } from './features/quote/quote-link';
import { mountIslands } from './islands/mount';
import { revealOnScroll } from './lib/reveal-on-scroll';

// The prerendered page is complete HTML. These small enhancements need no React; only the
// interactive parts (the islands) load it.
showCurrentYear();
enhanceQuoteLinks();
revealOnScroll();
mountIslands();
