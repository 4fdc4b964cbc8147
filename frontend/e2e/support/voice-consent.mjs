// The notice shown before the first call, as the build chose it from the content the site was
// built from (CONTENT_DIR, else content/): voiceControls.consentTextRecorded when
// assistant.yaml's `recording` is on (as it is unless it says false), else consentText; and the
// chat's. A test that is about the call, not the notice, starts as a visitor who accepted it
// before.
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

/** The content of the pages of `language` (`en` at /, `es` at /es/). */
const siteContent = (language) =>
  parse(contentFile(...(language === 'en' ? ['site.yaml'] : [language, 'site.yaml'])));

/** The notice's text on the pages of `language` (`en` at /, `es` at /es/). */
export function consentText(language = 'en') {
  const { voiceControls } = siteContent(language);
  return callsRecorded() ? voiceControls.consentTextRecorded : voiceControls.consentText;
}

/** The chat's notice on the pages of `language`. */
export const chatNoticeText = (language = 'en') => siteContent(language).voiceChat.notice;

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
