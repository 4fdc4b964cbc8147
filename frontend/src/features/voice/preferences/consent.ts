// The notice before the first call is remembered once accepted, together with its text, so a
// changed notice is shown again. Storage may be unavailable (private modes): then it is asked
// each time rather than failing.

/** Where an accepted consent notice is remembered (with its text, so a new text asks again). */
const CONSENT_STORAGE_KEY = 'voice-consent-accepted';

export function hasAcceptedConsent(text: string): boolean {
  try {
    return localStorage.getItem(CONSENT_STORAGE_KEY) === text;
  } catch {
    return false;
  }
}

export function rememberConsent(text: string) {
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, text);
  } catch {
    // not remembered; the notice simply shows again next time
  }
}
