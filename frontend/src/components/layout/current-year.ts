/** Marks the year in the copyright line, which the static footer prerenders with the build's year. */
export const COPYRIGHT_ATTRIBUTE = 'data-copyright';

/**
 * Writes the visitor's current year into the copyright line (docs/product.md §1): a year fixed at build
 * time would go stale on 1 January. Only the year: the line's words stay as prerendered, so they
 * are not shipped again in the script.
 */
export function showCurrentYear(now = new Date()) {
  for (const year of document.querySelectorAll(`[${COPYRIGHT_ATTRIBUTE}]`)) {
    year.textContent = String(now.getFullYear());
  }
}
