// The voice call starts in the language of the page it is started from (/ or /es/): the web
// SDK's `start(assistantId, overrides)` passes the page's language to the assistant, as the
// `{{language}}` variable its prompt and first message use, and in the call's metadata, which
// the end-of-call report brings back so the lead records it (backend/src/routes/voice_events/).
import { language } from '../../../language';

/** The `assistantOverrides` of every call started from this page. */
export const pageLanguageOverrides = {
  variableValues: { language },
  metadata: { language },
} as const;

export type AssistantOverrides = typeof pageLanguageOverrides;
