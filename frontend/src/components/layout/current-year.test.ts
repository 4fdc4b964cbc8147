import { afterEach, describe, expect, it } from 'vitest';
import { footer } from '../../content';
import { COPYRIGHT_ATTRIBUTE, showCurrentYear } from './current-year';

afterEach(() => document.body.replaceChildren());

describe('showCurrentYear', () => {
  it("replaces the build's year in the static footer with the visitor's", () => {
    document.body.innerHTML = `<footer><p ${COPYRIGHT_ATTRIBUTE}>${footer.copyright(2026)}</p></footer>`;
    showCurrentYear(new Date(2027, 0, 1));
    expect(document.querySelector('footer')?.textContent).toBe(footer.copyright(2027));
    expect(footer.copyright(2027)).toContain('© 2027');
  });
});
