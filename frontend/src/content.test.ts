import { beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from './entry-server';

// The counts and figures docs/product.md fixes (§1, §9), written here and looked for in the page as it
// is prerendered, so neither a rebrand of content.ts nor a section that stops showing its data
// can drop one unnoticed.
let page: Document;
beforeAll(async () => {
  const shell =
    '<!doctype html><html><head><!--app-head--></head><body><!--app-html--></body></html>';
  page = new DOMParser().parseFromString(await renderPage(shell, '/'), 'text/html');
});

const texts = (selector: string, root: ParentNode = page) =>
  [...root.querySelectorAll(selector)].map((el) => el.textContent?.trim() ?? '');
const sectionTitled = (heading: string) =>
  [...page.querySelectorAll('section')].find(
    (s) => s.querySelector('h2')?.textContent === heading,
  )!;

describe('the landing page shows the product content', () => {
  it('has the four header links, all to the top of the page', () => {
    const nav = [...page.querySelectorAll('header a')].filter((a) => a.textContent?.trim());
    const links = nav.filter((a) =>
      ['Home', 'Products & Services', 'About', 'Contact'].includes(a.textContent!.trim()),
    );
    expect(links.map((a) => a.textContent)).toEqual([
      'Home',
      'Products & Services',
      'About',
      'Contact',
    ]);
    expect(new Set(links.map((a) => a.getAttribute('href')))).toEqual(new Set(['#top']));
  });

  it('has eight distinct partners', () => {
    const strip = page.querySelector('section[aria-label="Our insurance partners"]')!;
    // The strip repeats its logos for a seamless loop; the repeats are decorative (empty alt).
    const named = [...strip.querySelectorAll('img')].map((img) => img.alt).filter(Boolean);
    expect(new Set(named).size).toBe(8);
  });

  it('has four plans and three testimonials', () => {
    expect(texts('h3', sectionTitled('Plans for every stage of life'))).toEqual([
      'Medicare',
      'Family & Individual',
      'Medicaid',
      'Employer',
    ]);
    expect(sectionTitled('Our Super Client Says').querySelectorAll('blockquote')).toHaveLength(3);
  });

  it('has the marketing figures', () => {
    const about = sectionTitled("Company that's building a healthier world").textContent!;
    for (const figure of [
      /200k\+\s*Satisfied Clients/i,
      /20\+\s*Years Experience/,
      /32\+\s*Industry Awards/,
    ]) {
      expect(about).toMatch(figure);
    }
  });

  it('has three footer columns of four, five (the opt-out page among them) and four links, and four social links', () => {
    const footer = page.querySelector('footer')!;
    const columns = [...footer.querySelectorAll('ul')].filter(
      (ul) => !ul.querySelector('a[aria-label]'),
    );
    expect(columns.map((ul) => ul.querySelectorAll('a').length)).toEqual([4, 5, 4]);
    expect(
      [...footer.querySelectorAll('a[aria-label]')].map((a) => a.getAttribute('aria-label')),
    ).toEqual(['Facebook', 'Twitter', 'Instagram', 'LinkedIn']);
    expect(footer.textContent).toMatch(/© \d{4} /);
  });
});

describe('the example broker', () => {
  it('shows the Medicare disclaimer with its numbers beside the quote form and in the footer', () => {
    const words = /represent 8 organizations which offer 24 products in your area/;
    expect(sectionTitled('Get a Free Quote to Create Your Desired Insurance').textContent).toMatch(
      words,
    );
    expect(page.querySelector('footer')!.textContent).toMatch(words);
    const medicare = [...page.querySelectorAll('a')].filter(
      (a) => a.textContent === '1-800-MEDICARE',
    );
    expect(medicare.map((a) => a.getAttribute('href'))).toEqual([
      'tel:+18006334227',
      'tel:+18006334227',
    ]);
  });

  it('turns on no extra quote field: the form is the spec’s, a product and an e-mail address', () => {
    const form = page.querySelector('form[action="/api/quote-requests"]')!;
    const named = [...form.querySelectorAll('input, select, textarea')]
      .filter((field) => field.getAttribute('type') !== 'hidden')
      .map((field) => field.getAttribute('name'));
    expect(named).toEqual(['product', 'email', 'website']);
    expect(
      form.querySelector('[type="tel"], [type="checkbox"], [autocomplete="postal-code"]'),
    ).toBeNull();
    expect(form.textContent).not.toMatch(/phone|ZIP|call or text/i);
  });

  it('sets no contact details, so none show', () => {
    expect(page.querySelector('a[href^="tel:"]:not([href="tel:+18006334227"])')).toBeNull();
    expect(page.querySelector('a[href^="mailto:"]')).toBeNull();
    expect(page.querySelector('footer address')).toBeNull();
  });

  it('links the footer’s Privacy & Policy, Licenses and Do not contact me to their pages', () => {
    const href = (label: string) =>
      [...page.querySelectorAll('footer a')]
        .find((a) => a.textContent === label)
        ?.getAttribute('href');
    expect(href('Privacy & Policy')).toBe('/privacy');
    expect(href('Licenses')).toBe('/licences');
    expect(href('Do not contact me')).toBe('/opt-out');
  });
});
