// The notice shown before the first call, as the build chose it from the content the site was
// built from (CONTENT_DIR, else content/): voiceControls.consentTextRecorded when
// assistant.yaml's `recording` is on (as it is unless it says false), else consentText. A test that
// is about the call, not the notice, starts as a visitor who accepted it before.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './server.mjs';

/** Where the page remembers the accepted notice, with its text (preferences/consent.ts). */
const CONSENT_STORAGE_KEY = 'voice-consent-accepted';

function contentFile(...path) {
  const dir = process.env.CONTENT_DIR || 'content';
  return readFileSync(join(isAbsolute(dir) ? dir : resolve(repoRoot, dir), ...path), 'utf8');
}

/** Whether the site's calls are recorded, as the build read content/assistant.yaml. */
export const callsRecorded = () => parse(contentFile('assistant.yaml')).recording !== false;

/** The notice's text on the pages of `language` (`en` at /, `es` at /es/). */
export function consentText(language = 'en') {
  const { voiceControls } = parse(
    contentFile(...(language === 'en' ? ['site.yaml'] : [language, 'site.yaml'])),
  );
  return callsRecorded() ? voiceControls.consentTextRecorded : voiceControls.consentText;
}

/** Every page of `context` starts with the notice (of `language`'s pages) accepted. */
export function acceptConsent(context, language = 'en') {
  return context.addInitScript(
    ([key, text]) => {
      try {
        localStorage.setItem(key, text);
      } catch {
        // a document without storage of its own (about:blank, a sandboxed frame)
      }
    },
    [CONSENT_STORAGE_KEY, consentText(language)],
  );
}
