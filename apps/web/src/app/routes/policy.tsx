// Placeholder while the page is being built this session; replaced by its feature.
import { InfoPage } from './info-page';

export function PrivacyPage() {
  return <InfoPage page="privacy" />;
}
export function TermsPage() {
  return <InfoPage page="terms" />;
}
