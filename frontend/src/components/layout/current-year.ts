import { footer } from '../../content';

/** Marks the copyright line, which the static footer prerenders with the build's year. */
export const COPYRIGHT_ATTRIBUTE = 'data-copyright';

/**
 * Writes the visitor's current year into the copyright line (docs/product.md §1): a year fixed at build
 * time would go stale on 1 January.
 */
export function showCurrentYear(now = new Date()) {
  for (const line of document.querySelectorAll(`[${COPYRIGHT_ATTRIBUTE}]`)) {
    line.textContent = footer.copyright(now.getFullYear());
  }
}
