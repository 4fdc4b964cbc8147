import { describe, expect, it } from 'vitest';
import { brand, seo } from './content';
import { headTags, insuranceAgencyJsonLd } from './head';

describe('headTags', () => {
  it('gives the landing page its title, description, canonical link, Open Graph and JSON-LD', () => {
    const head = headTags('landing');
    expect(head).toContain(`<title>${seo.title}</title>`);
    expect(head).toContain('<meta name="description" content="');
    expect(head).toContain(`<link rel="canonical" href="${brand.url}" />`);
    for (const property of [
      'og:type',
      'og:title',
      'og:description',
      'og:url',
      'og:site_name',
      'og:image',
    ]) {
      expect(head).toContain(`<meta property="${property}" content="`);
    }
    const json = head.match(/<script type="application\/ld\+json">(.*)<\/script>/)![1];
    expect(JSON.parse(json)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'InsuranceAgency',
      name: brand.name,
      description: brand.description,
      url: brand.url,
      logo: expect.stringMatching(/^https:\/\/.+\/images\/logo\.svg$/),
      image: expect.stringMatching(/^https:\/\/.+\.png$/),
    });
  });

  it('keeps the 404 page out of search results and without a canonical link', () => {
    const head = headTags('not-found');
    expect(head).toContain('<meta name="robots" content="noindex" />');
    expect(head).not.toContain('canonical');
  });

  it('titles a quote result page with its outcome, out of search results', () => {
    const head = headTags({ quoteResult: 'Quote request submitted!' });
    expect(head).toContain(`<title>Quote request submitted! | ${brand.name}</title>`);
    expect(head).toContain('<meta name="robots" content="noindex" />');
    expect(head).not.toContain('canonical');
  });

  it('describes the agency with absolute URLs', () => {
    const agency = insuranceAgencyJsonLd();
    expect(agency['@type']).toBe('InsuranceAgency');
    expect(agency.name).toBe(brand.name);
    expect(agency.logo).toMatch(/^https:\/\/.+\/images\/logo\.svg$/);
  });
});
