// @vitest-environment node
// Each kind of mistake in the content folder stops the build with one line naming the file, the
// key or line, and what is expected.
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentDir, loadContent } from './load.ts';
import { parse } from 'yaml';

const example = contentDir({});
let copies: string[] = [];
afterEach(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  copies = [];
});

/** A copy of the example content with site.yaml changed by `edit`. */
function contentWith(edit: (yaml: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  copies.push(dir);
  cpSync(example, dir, { recursive: true });
  const site = join(dir, 'site.yaml');
  writeFileSync(site, edit(readFileSync(site, 'utf8')));
  return dir;
}

/** The error `loadContent` stops with, which must be one line. */
function errorOf(dir: string, language: 'en' | 'es' = 'en'): string {
  try {
    loadContent(dir, language);
  } catch (error) {
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('the content loaded');
}

const lineOf = (yaml: string, text: string) =>
  yaml.split('\n').findIndex((l) => l.includes(text)) + 1;

describe('loadContent', () => {
  it('loads the example content, the page docs/product.md describes', () => {
    const { site, pages } = loadContent(example);
    expect(site.hero.heading).toBe('Enjoy the Life at Every stage');
    expect(site.footer.columns.map((c) => c.links.length)).toEqual([4, 5, 4]);
    expect(pages.privacy).toContain('{{retention}}');
    expect(pages.privacy).toContain('<h2>');
  });

  it("leaves the server's slots in the privacy notice and writes the assistant's facts in", () => {
    const { site, assistant, pages } = loadContent(example);
    for (const slot of ['{{retention}}', '{{conversationRetention}}', '{{leadWebhook}}'])
      expect(pages.privacy.split(slot)).toHaveLength(2);
    expect(pages.privacy).not.toMatch(/\{\{(recording|aiServices)\}\}/);
    // The example's assistant.yaml: openai, azure and deepgram, by the names people know.
    expect(pages.privacy).toMatch(
      /OpenAI \(the language model .*\), Microsoft Azure \(the voice .*\) and Deepgram \(which/,
    );
    const { recordingOn, recordingOff } = site.privacyPage;
    expect(pages.privacy).toContain(assistant.recording ? recordingOn : recordingOff);
    expect(pages.privacy).not.toContain(assistant.recording ? recordingOff : recordingOn);
  });

  it('says calls are recorded only when assistant.yaml records them (on unless it says false)', () => {
    const dir = contentWith((y) => y);
    const file = join(dir, 'assistant.yaml');
    const yaml = readFileSync(file, 'utf8');
    const recording = (value: string) => {
      writeFileSync(file, yaml.replace(/^recording: .*$/m, value));
      return loadContent(dir);
    };
    for (const language of ['en', 'es'] as const) {
      writeFileSync(file, yaml.replace(/^recording: .*$/m, 'recording: false'));
      const off = loadContent(dir, language);
      expect(off.assistant.recording).toBe(false);
      expect(off.pages.privacy).toContain(off.site.privacyPage.recordingOff);
      expect(off.pages.privacy).not.toContain(off.site.privacyPage.recordingOn);
    }
    expect(recording('recording: true').pages.privacy).toContain('Calls are recorded:');
    expect(recording('').assistant.recording).toBe(true);
    writeFileSync(file, yaml.replace(/^recording: .*$/m, 'recording: sometimes'));
    expect(errorOf(dir)).toMatch(
      /assistant\.yaml:\d+: recording: expected a boolean, got "sometimes"$/,
    );
  });

  it('shows a provider it does not know by its id, and names a missing one', () => {
    const dir = contentWith((y) => y);
    const file = join(dir, 'assistant.yaml');
    const yaml = readFileSync(file, 'utf8');
    writeFileSync(file, yaml.replace('provider: deepgram', 'provider: "<newcomer>"'));
    expect(loadContent(dir).pages.privacy).toContain('and &lt;newcomer&gt; (which turns');
    writeFileSync(file, yaml.replace(/^ {2}provider: azure\n/m, ''));
    expect(errorOf(dir)).toMatch(
      /assistant\.yaml:\d+: voice\.provider: missing; expected a string$/,
    );
    unlinkSync(file);
    expect(errorOf(dir)).toMatch(/assistant\.yaml: missing; expected the voice assistant in YAML$/);
  });

  it('names a missing key', () => {
    const yaml = readFileSync(join(example, 'site.yaml'), 'utf8');
    const dir = contentWith((y) => y.replace(/^ {2}cta: Get Started\n/m, ''));
    expect(errorOf(dir)).toBe(
      `${join(dir, 'site.yaml')}:${lineOf(yaml, 'hero:')}: hero.cta: missing; expected a string`,
    );
  });

  it('names a mistyped value', () => {
    const dir = contentWith((y) => y.replace('logoWidth: 160', 'logoWidth: wide'));
    expect(errorOf(dir)).toMatch(
      /site\.yaml:\d+: partners\.logoWidth: expected a number, got "wide"$/,
    );
  });

  it('names an unknown (misspelt) key with its line', () => {
    const dir = contentWith((y) => y.replace('  heading: Enjoy', '  headline: Enjoy'));
    const yaml = readFileSync(join(dir, 'site.yaml'), 'utf8');
    expect(errorOf(dir)).toMatch(
      new RegExp(`site\\.yaml:${lineOf(yaml, 'headline:')}: hero\\.headline: unknown key`),
    );
  });

  it('names a missing image and where it should be', () => {
    const dir = contentWith((y) => y);
    unlinkSync(join(dir, 'public/images/partners/corvane.svg'));
    expect(errorOf(dir)).toMatch(
      /site\.yaml:\d+: partners\.items\[2\]\.logo: \/images\/partners\/corvane\.svg does not exist; expected a file at .*public\/images\/partners\/corvane\.svg$/,
    );
  });

  it('names a link target that is no site path, anchor, mailto:, tel: or https://', () => {
    for (const target of [
      'http://example.com/',
      'javascript:alert(1)',
      'privacy',
      '//evil.example/',
    ]) {
      const dir = contentWith((y) => y.replace('href: /privacy', `href: "${target}"`));
      expect(errorOf(dir)).toMatch(
        /site\.yaml:\d+: footer\.columns\[1\]\.links\[2\]\.href: expected a site path \(\/privacy\), an anchor \(#top\), mailto:, tel: or https:\/\/$/,
      );
    }
  });

  it('names a bad link in a Markdown page by its line', () => {
    const dir = contentWith((y) => y);
    writeFileSync(
      join(dir, 'pages/privacy.md'),
      'Intro\n\nSee [our terms](ftp://x/terms). {{retention}}\n',
    );
    expect(errorOf(dir)).toMatch(
      /pages\/privacy\.md:3: link "ftp:\/\/x\/terms": expected a site path/,
    );
  });

  it('names YAML that does not parse, by its line', () => {
    const dir = contentWith((y) => y.replace('  cta: Get Started', '  cta: [Get Started'));
    expect(errorOf(dir)).toMatch(/site\.yaml:\d+: not valid YAML: /);
  });

  it('wants the privacy notice to say where the retention goes', () => {
    const dir = contentWith((y) => y);
    writeFileSync(join(dir, 'pages/privacy.md'), 'We keep it for ever.\n');
    expect(errorOf(dir)).toMatch(/pages\/privacy\.md: expected \{\{retention\}\} once/);
  });

  it('wants every slot of the privacy notice once, in each language', () => {
    const slots = [
      '{{retention}}',
      '{{conversationRetention}}',
      '{{leadWebhook}}',
      '{{recording}}',
      '{{aiServices}}',
    ];
    for (const [language, page] of [
      ['en', 'pages/privacy.md'],
      ['es', 'es/pages/privacy.md'],
    ] as const) {
      for (const slot of slots) {
        const dir = contentWith((y) => y);
        const file = join(dir, page);
        const markdown = readFileSync(file, 'utf8');
        expect(markdown.split(slot)).toHaveLength(2);
        writeFileSync(file, markdown.replace(slot, 'for a while'));
        expect(errorOf(dir, language)).toContain(`privacy.md: expected ${slot} once, where the`);
        writeFileSync(file, `${markdown}\n${slot}\n`);
        expect(errorOf(dir, language)).toContain(`privacy.md: expected ${slot} once`);
      }
    }
  });

  it('has a Spanish text for every text of the English site, in the Spanish file itself', () => {
    const english = parse(readFileSync(join(example, 'site.yaml'), 'utf8'));
    const spanish = parse(readFileSync(join(example, 'es/site.yaml'), 'utf8'));
    const { site } = loadContent(example, 'es');
    // Every sentence of the English tree (a text with a space) is either in es/site.yaml under
    // the same key, or a link, a path or a name the loader may take as it is: never English prose.
    const untranslated: string[] = [];
    const walk = (en: unknown, es: unknown, built: unknown, path: string) => {
      if (typeof en === 'string') {
        if (/\s/.test(en) && es === undefined && built === en && !/^(\/|#|https:)/.test(en))
          untranslated.push(path);
        return;
      }
      if (en && typeof en === 'object')
        for (const [key, value] of Object.entries(en))
          walk(
            value,
            (es as Record<string, unknown> | undefined)?.[key],
            (built as Record<string, unknown>)[key],
            `${path}.${key}`,
          );
    };
    walk(english, spanish, site, '');
    // Proper names (brand, partners, clients) stay as they are; the inbox is the broker's page,
    // not one of /es/.
    expect(untranslated.filter((p) => !/\.name$|^\.inbox\./.test(p))).toEqual([]);
    expect(site.hero.heading).toBe('Disfrute la vida en cada etapa');
    expect(site.footer.columns[1].links[2]).toEqual({
      label: 'Privacidad y políticas',
      href: '/es/privacy',
    });
    expect(site.header.nav[0].href).toBe('#top');
    expect(loadContent(example, 'es').pages.privacy).toContain('{{retention}}');
  });

  it('names a text with no Spanish counterpart, by its key', () => {
    const dir = contentWith((y) => y);
    const file = join(dir, 'es/site.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {2}cta: Comenzar\n/m, ''));
    expect(errorOf(dir, 'es')).toMatch(
      /es\/site\.yaml:\d+: hero\.cta: missing; expected its Spanish text$/,
    );
  });

  it('has the quote form’s extra fields off unless the broker turns them on', () => {
    expect(loadContent(example).site.quote.fields).toEqual({ phone: 'off', zip: 'off' });
    const unset = contentWith((y) => y.replace(/^ {2}fields:\n(?: {4}.*\n)+/m, ''));
    expect(loadContent(unset).site.quote.fields).toEqual({ phone: 'off', zip: 'off' });
    const on = contentWith((y) =>
      y
        .replace('    phone: off', '    phone: optional')
        .replace('    zip: off', '    zip: required'),
    );
    for (const language of ['en', 'es'] as const)
      expect(loadContent(on, language).site.quote.fields).toEqual({
        phone: 'optional',
        zip: 'required',
      });
  });

  it('names an extra field set to anything but off, optional or required', () => {
    for (const [key, value] of [
      ['phone', 'maybe'],
      ['zip', 'yes please'],
      ['phone', 'true'],
    ]) {
      const dir = contentWith((y) => y.replace(`    ${key}: off`, `    ${key}: ${value}`));
      const yaml = readFileSync(join(dir, 'site.yaml'), 'utf8');
      expect(errorOf(dir)).toBe(
        `${join(dir, 'site.yaml')}:${lineOf(yaml, `    ${key}: ${value}`)}: quote.fields.${key}: expected one of "off", "optional", "required"`,
      );
    }
  });

  it('wants the consent to be called to name the broker once the phone is on, in each language', () => {
    const noBroker = (y: string) =>
      y.replace(/^( {2}phoneConsent: ").*\{broker\}/m, '$1I agree that the broker');
    // Unused while the phone is off.
    expect(loadContent(contentWith(noBroker)).site.quote.phoneConsent).toMatch(/^I agree that/);
    const dir = contentWith((y) => noBroker(y).replace('    phone: off', '    phone: optional'));
    expect(errorOf(dir)).toMatch(
      /site\.yaml:\d+: quote\.phoneConsent: expected the text to hold \{broker\}, the broker the visitor agrees may call$/,
    );
    const spanish = contentWith((y) => y.replace('    phone: off', '    phone: required'));
    const file = join(spanish, 'es/site.yaml');
    writeFileSync(file, noBroker(readFileSync(file, 'utf8')));
    expect(errorOf(spanish, 'es')).toMatch(
      /es\/site\.yaml:\d+: quote\.phoneConsent: expected the text to hold \{broker\}/,
    );
  });

  it('takes the extra fields from site.yaml alone, the same in both languages', () => {
    const dir = contentWith((y) => y);
    const file = join(dir, 'es/site.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /^( {2}phoneLabel:)/m,
        '  fields:\n    phone: optional\n$1',
      ),
    );
    expect(errorOf(dir, 'es')).toMatch(
      /es\/site\.yaml:\d+: quote\.fields: set in site\.yaml only; both languages show the same fields$/,
    );
  });

  it('names a Spanish key site.yaml does not have', () => {
    const dir = contentWith((y) => y);
    const file = join(dir, 'es/site.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('  cta: Comenzar', '  cta: Comenzar\n  ctaa: x'),
    );
    expect(errorOf(dir, 'es')).toMatch(/es\/site\.yaml:\d+: hero\.ctaa: unknown key/);
  });
});
