// Whether a call starts with its captions panel open: the visitor's last choice in this visit,
// else open unless the screen is a phone's. Storage may be unavailable (private modes): then the
// choice lasts as long as the page.

/** Below this viewport width (px; Tailwind's sm) a call starts with the captions panel closed:
 * open, it would cover most of a phone's screen. */
const CAPTIONS_CLOSED_BELOW_PX = 640;
/** Where the visitor's own choice to show or hide the captions is kept for the visit. */
const CAPTIONS_STORAGE_KEY = 'voice-captions-open';

let pageChoice: boolean | undefined;

function visitorChoice(): boolean | undefined {
  try {
    const stored = sessionStorage.getItem(CAPTIONS_STORAGE_KEY);
    return stored === null ? undefined : stored === 'true';
  } catch {
    return pageChoice;
  }
}

const isPhone = () =>
  window.matchMedia?.(`(max-width: ${CAPTIONS_CLOSED_BELOW_PX - 0.02}px)`).matches ?? false;

export function captionsOpenAtStart(): boolean {
  return visitorChoice() ?? !isPhone();
}

export function rememberCaptionsOpen(open: boolean) {
  pageChoice = open;
  try {
    sessionStorage.setItem(CAPTIONS_STORAGE_KEY, String(open));
  } catch {
    // kept in `pageChoice` for this page
  }
}
