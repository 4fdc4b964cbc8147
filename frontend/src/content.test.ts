import { describe, expect, it } from 'vitest';
import { about, footer, header, partners, plans, testimonials } from './content';

// The counts and figures the spec fixes (§1, §9), so a rebrand cannot drop one by accident.
describe('content', () => {
  it('has the four header links, all to the top of the page', () => {
    expect(header.nav.map((l) => l.label)).toEqual(['Home', 'Products & Services', 'About', 'Contact']);
    expect(new Set(header.nav.map((l) => l.href))).toEqual(new Set(['#top']));
  });

  it('has eight distinct partners, four plans and three testimonials', () => {
    expect(new Set(partners.items.map((p) => p.name)).size).toBe(8);
    expect(plans.items.map((p) => p.title)).toEqual(['Medicare', 'Family & Individual', 'Medicaid', 'Employer']);
    expect(testimonials.items).toHaveLength(3);
  });

  it('has the marketing figures', () => {
    expect(about.stats.map((s) => `${s.value} ${s.label}`)).toEqual([
      '200k+ Satisfied Clients',
      '20+ Years Experience',
      '32+ Industry Awards',
    ]);
  });

  it('has three footer columns of four links and four social links', () => {
    expect(footer.columns.map((c) => c.links.length)).toEqual([4, 4, 4]);
    expect(footer.social.map((s) => s.label)).toEqual(['Facebook', 'Twitter', 'Instagram', 'LinkedIn']);
    expect(footer.copyright(2031)).toMatch(/^© 2031 /);
  });
});
