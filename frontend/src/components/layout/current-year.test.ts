import { describe, expect, it } from 'vitest';
import { copyrightParts } from '../../content';
import { COPYRIGHT_ATTRIBUTE, showCurrentYear } from './current-year';

describe('showCurrentYear', () => {
  it('writes the visitor’s year into the copyright line, keeping its words', () => {
    const [before, after] = copyrightParts();
    document.body.innerHTML = `<footer><p>${before}<span ${COPYRIGHT_ATTRIBUTE}>2026</span>${after}</p></footer>`;
    showCurrentYear(new Date(2027, 0, 1));
    expect(document.querySelector('footer')?.textContent).toBe(`${before}2027${after}`);
    expect(document.querySelector('footer')?.textContent).toContain('© 2027');
  });
});
