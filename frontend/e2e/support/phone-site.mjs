// A copy of the built site with the phone and ZIP fields on (the build facts the server reads),
// and leads posted into it as the quote form's script posts them: for the inbox's and the
// consent page's tests.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formCookie, repoRoot } from './server.mjs';
import { expect } from './test.mjs';

/** The disclosure beside the English phone field, the broker named. */
export const PHONE_CONSENT =
  'I agree that Clearharbor Health may call or text me at this number about my quote, ' +
  'possibly using automated technology or an artificial or AI-generated voice. Consent is not ' +
  'a condition of purchase.';

/**
 * A copy of the built site (frontend/dist) whose build facts, English and Spanish, have the phone
 * and ZIP fields on and the disclosure beside the phone field, and list `licences`; their other
 * keys kept. `dispose()` removes it.
 */
export function siteWithPhoneAndZip(licences) {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-callable-'));
  // The build itself, where frontend/dist is a link to it (as in a second worktree).
  cpSync(realpathSync(join(repoRoot, 'frontend/dist')), dir, { recursive: true });
  for (const file of ['.site/site.json', '.site/es/site.json']) {
    const path = join(dir, file);
    const facts = JSON.parse(readFileSync(path, 'utf8'));
    facts.fields = { phone: 'optional', zip: 'optional' };
    // Spanish keeps its own disclosure, which a build from content/es/ writes.
    facts.phoneConsent = file.includes('/es/')
      ? (facts.phoneConsent ?? PHONE_CONSENT)
      : PHONE_CONSENT;
    facts.licences = licences;
    writeFileSync(path, JSON.stringify(facts, null, 2));
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A lead posted as the quote form's script posts it, with the token its page gave. */
export async function postLead(url, body) {
  const response = await fetch(new URL('/api/quote-requests', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: await formCookie(url) },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()).id;
}
