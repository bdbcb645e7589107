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
 * "Loading page..." (or another label, e.g. "Authenticating...") in a page's place while its code
 * or the session loads; its height keeps the footer below the fold, so the page arriving moves
 * nothing the reader sees (no layout shift, issue #18). The bare `FullScreenLoader` is fixed and
 * takes no room: the footer would sit under the header and jump when the page comes.
 */
export function PageLoader({ label }: { label?: string } = {}) {
  const { t } = useTranslation();
  return (
    <div className="min-h-dvh">
      <FullScreenLoader label={label ?? t('loading.page')} />
    </div>
  );
}
