// The calls to action ('Obtener Cotización', 'Get Started', 'Become a Member') lead to the quote
// form: real links, so they work before any script has run, enhanced once one has.

/**
 * The product field's id, which the links point at: following a link to a focusable element
 * scrolls to it and focuses it, so the links reach the field even without JavaScript.
 */
export const QUOTE_FIELD_ID = 'quote';
import { homePath } from '../language';

/** From the language's landing page, so the header's link also leads there from the 404 page. */
export const QUOTE_HREF = `${homePath}#${QUOTE_FIELD_ID}`;

/**
 * Scrolls the product field into view (smoothly, unless the visitor asks for reduced motion:
 * index.css's scroll-behavior decides) and focuses it. False when this page has no quote form.
 */
export function goToQuote(): boolean {
  const field = document.getElementById(QUOTE_FIELD_ID);
  if (!field) return false;
  field.scrollIntoView({ block: 'start' });
  field.focus({ preventScroll: true });
  if (window.location.hash !== `#${QUOTE_FIELD_ID}`)
    window.history.pushState(null, '', `#${QUOTE_FIELD_ID}`);
  return true;
}

const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * Takes over clicks on links to the form on this page, with one listener on the document, so the
 * static sections need no React. A link that prevents the default itself (the side menu's, which
 * first closes the menu) is left alone.
 */
export function enhanceQuoteLinks() {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || !isPlainClick(event) || !(event.target instanceof Element))
      return;
    const link = event.target.closest('a');
    if (!link || link.pathname !== window.location.pathname || link.hash !== `#${QUOTE_FIELD_ID}`)
      return;
    if (goToQuote()) event.preventDefault();
  });
}
