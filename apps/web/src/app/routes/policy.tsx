import { PolicyPage } from '../../features/education/components/policy-page';

/** /privacy: the privacy policy, as the server serves it (apps/server/content/pages). */
export function PrivacyPage() {
  return <PolicyPage slug="privacy" />;
}

/** /terms: the terms of service. */
export function TermsPage() {
  return <PolicyPage slug="terms" />;
}
