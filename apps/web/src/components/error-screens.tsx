import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../config/use-config';
import { cn } from '../lib/cn';
import { Button, buttonClasses } from './button';
import { ErrorCircleIcon, WarningIcon } from './icons';

function ScreenFrame({
  title,
  icon,
  compact = false,
  children,
}: {
  title: string;
  icon: ReactNode;
  compact?: boolean;
  children: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Move focus to the message, so keyboard and screen-reader users learn what happened.
  useEffect(() => {
    if (!compact) headingRef.current?.focus();
  }, [compact]);
  const Heading = compact ? 'h2' : 'h1';
  return (
    <div
      className={cn(
        'mx-auto flex max-w-xl flex-col items-center text-center',
        compact
          ? 'gap-3 rounded-xl border border-slate-200 bg-slate-50 p-6'
          : 'gap-4 px-4 py-12 sm:py-20',
      )}
    >
      <span className="text-primary-700">{icon}</span>
      <Heading
        ref={headingRef}
        tabIndex={-1}
        className={cn('font-bold text-slate-900', compact ? 'text-xl' : 'text-2xl sm:text-3xl')}
      >
        {title}
      </Heading>
      {children}
    </div>
  );
}

/** The page URL without query or fragment: those may hold tokens or personal data. */
function currentPageUrl(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

function buildBugReportHref(email: string | null, subject: string, body: string): string {
  return `mailto:${email ?? ''}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/** "Oops! Something went wrong": any render error (product spec section 2). Never a toast. */
export function ErrorScreen({ errorId, onReset }: { errorId: string; onReset: () => void }) {
  const { t } = useTranslation(['errors', 'common']);
  const { supportEmail } = useConfig();
  const reportHref = buildBugReportHref(
    supportEmail,
    t('screen.reportSubject', { id: errorId }),
    t('screen.reportBody', { id: errorId, url: currentPageUrl() }),
  );

  return (
    <ScreenFrame title={t('screen.title')} icon={<ErrorCircleIcon className="size-12" />}>
      <p className="text-lg text-slate-700">{t('screen.message')}</p>
      <div className="rounded-lg bg-slate-100 px-4 py-3">
        <p className="font-mono text-base font-semibold text-slate-900">
          {t('screen.errorId', { id: errorId })}
        </p>
        <p className="text-sm text-slate-700">{t('screen.errorIdHint')}</p>
      </div>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button onClick={onReset}>{t('common:actions.tryAgain')}</Button>
        <a href="/" className={buttonClasses({ variant: 'secondary' })}>
          {t('common:actions.goHome')}
        </a>
        <a href={reportHref} className={buttonClasses({ variant: 'ghost' })}>
          {t('screen.reportBug')}
        </a>
      </div>
    </ScreenFrame>
  );
}

/** A component's code failed to download. */
export function LoadingError({ onRefresh }: { onRefresh?: () => void }) {
  const { t } = useTranslation(['errors', 'common']);
  return (
    <ScreenFrame compact title={t('loadingError.title')} icon={<WarningIcon className="size-8" />}>
      <p className="text-slate-700">{t('loadingError.message')}</p>
      <Button variant="secondary" onClick={onRefresh ?? (() => window.location.reload())}>
        {t('common:actions.refreshPage')}
      </Button>
    </ScreenFrame>
  );
}

/** A page's code failed to download after every retry. */
export function PageUnavailable({
  page,
  onRetry,
  onBack,
  compact = false,
}: {
  page: string;
  onRetry: () => void;
  onBack: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation(['errors', 'common']);
  return (
    <ScreenFrame
      compact={compact}
      title={t('pageUnavailable.title')}
      icon={<WarningIcon className={compact ? 'size-8' : 'size-12'} />}
    >
      <p className={cn('text-slate-700', !compact && 'text-lg')}>
        {t('pageUnavailable.message', { page })}
      </p>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button onClick={onRetry}>{t('common:actions.tryAgain')}</Button>
        <Button variant="secondary" onClick={onBack}>
          {t('common:actions.goBack')}
        </Button>
      </div>
    </ScreenFrame>
  );
}

/** An optional feature's code failed to download; the rest of the page keeps working. */
export function FeatureUnavailable() {
  const { t } = useTranslation(['errors', 'common']);
  return (
    <ScreenFrame
      compact
      title={t('featureUnavailable.title')}
      icon={<WarningIcon className="size-8" />}
    >
      <p className="text-slate-700">{t('featureUnavailable.message')}</p>
    </ScreenFrame>
  );
}
