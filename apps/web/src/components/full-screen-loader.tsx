import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

/** Covers the screen while the session or a page's code loads ("Authenticating...", "Loading page..."). */
export function FullScreenLoader({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex animate-fade-in flex-col items-center justify-center gap-4 bg-white/95 p-6 text-center"
    >
      <Spinner size="lg" className="text-primary-700" />
      <p className="text-lg font-medium text-slate-800">{label}</p>
    </div>
  );
}

/**
 * "Loading page..." in a page's place while its code downloads; its height keeps the footer below
 * the fold, so the page arriving moves nothing the reader sees (no layout shift).
 */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="min-h-dvh">
      <FullScreenLoader label={t('loading.page')} />
    </div>
  );
}
