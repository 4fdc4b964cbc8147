import { pages } from 'virtual:site-content/pages';
import { privacyPage } from '../content';
import { TextPage } from './TextPage';

/**
 * The privacy notice: content/pages/privacy.md, rendered at build time with whether calls are
 * recorded and the assistant's AI services written in (from content/assistant.yaml). Its
 * `{{retention}}`, `{{conversationRetention}}` and `{{leadWebhook}}` slots are filled by the
 * server from its own settings (backend/src/routes/site/privacy.rs), so the notice cannot promise
 * what the server does not do.
 */
export function PrivacyPage() {
  return (
    <TextPage title={privacyPage.title} languagePath="/privacy">
      <div dangerouslySetInnerHTML={{ __html: pages.privacy }} />
    </TextPage>
  );
}
