import { pages } from 'virtual:site-content/pages';
import { privacyPage } from '../content';
import { TextPage } from './TextPage';

/**
 * The privacy notice: content/pages/privacy.md, rendered at build time. Its `{{retention}}` slot
 * is filled by the server from its own LEAD_RETENTION_DAYS (backend/src/routes/site/pages.rs), so
 * the notice cannot promise a retention the server does not keep.
 */
export function PrivacyPage() {
  return (
    <TextPage title={privacyPage.title} languagePath="/privacy">
      <div dangerouslySetInnerHTML={{ __html: pages.privacy }} />
    </TextPage>
  );
}
