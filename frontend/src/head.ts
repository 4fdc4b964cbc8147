// The <head> tags of each prerendered page: title, description, canonical link, Open Graph and
// the schema.org InsuranceAgency description, all built from the content (content.ts).
import { escapeHtml } from '../site-content/html';
import { LANGUAGES } from '../site-content/translation';
import { brand, hero, notFoundPage, seo } from './content';
import { pathIn } from './language';

export type PageKind =
  'landing' | 'not-found' | { quoteResult: string } | { page: string; path: string };

/** JSON inside <script> must not be able to close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const absolute = (path: string) => new URL(path, brand.url).href;

/**
 * The canonical link of the page at `path` (in English terms: /, /privacy) in this build's
 * language, which is the page itself, and its alternates in every language, English the default.
 */
function languageLinks(path: string): string[] {
  const alternate = (hreflang: string, href: string) =>
    `<link rel="alternate" hreflang="${hreflang}" href="${escapeHtml(absolute(href))}" />`;
  return [
    `<link rel="canonical" href="${escapeHtml(absolute(pathIn(path)))}" />`,
    ...LANGUAGES.map((lang) => alternate(lang, pathIn(path, lang))),
    alternate('x-default', pathIn(path, 'en')),
  ];
}

export function insuranceAgencyJsonLd() {
  return {
    '@context': 'https://schema.org',
    '@type': 'InsuranceAgency',
    name: brand.name,
    description: brand.description,
    url: brand.url,
    logo: absolute(brand.logo.src),
    image: absolute(brand.shareImage.src),
  };
}

export function headTags(page: PageKind): string {
  if (typeof page === 'object' && 'page' in page) {
    return [
      `<title>${escapeHtml(`${page.page} | ${brand.name}`)}</title>`,
      `<meta name="description" content="${escapeHtml(brand.description)}" />`,
      ...languageLinks(page.path),
    ].join('\n    ');
  }
  if (typeof page === 'object') {
    return [
      `<title>${escapeHtml(`${page.quoteResult} | ${brand.name}`)}</title>`,
      '<meta name="robots" content="noindex" />',
    ].join('\n    ');
  }
  if (page === 'not-found') {
    return [
      `<title>${escapeHtml(`${notFoundPage.title} | ${brand.name}`)}</title>`,
      `<meta name="description" content="${escapeHtml(notFoundPage.text)}" />`,
      '<meta name="robots" content="noindex" />',
    ].join('\n    ');
  }
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(seo.title)}</title>`,
    meta('name', 'description', brand.description),
    ...languageLinks('/'),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', brand.name),
    meta('property', 'og:title', seo.title),
    meta('property', 'og:description', brand.description),
    meta('property', 'og:url', absolute(pathIn('/'))),
    meta('property', 'og:locale', seo.locale),
    meta('property', 'og:image', absolute(brand.shareImage.src)),
    meta('property', 'og:image:type', 'image/png'),
    meta('property', 'og:image:width', String(brand.shareImage.width)),
    meta('property', 'og:image:height', String(brand.shareImage.height)),
    // The card shows the logo, the hero's heading and the tagline.
    meta('property', 'og:image:alt', `${brand.name}: ${hero.heading}`),
    meta('name', 'twitter:card', 'summary_large_image'),
    `<script type="application/ld+json">${scriptJson(insuranceAgencyJsonLd())}</script>`,
  ].join('\n    ');
}
