import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Outlet, ScrollRestoration, useLocation, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../components/error-boundary';
import { ErrorScreen } from '../../components/error-screens';
import { PageLoader } from '../../components/full-screen-loader';
import { createErrorId } from '../../lib/error-id';
import { afterLoad } from '../../lib/after-load';
import { useHydrated } from '../../lib/use-hydrated';
import { DemoDataBanner } from './demo-data-banner';
import { Footer } from './footer';
import { Header } from './header';

export const MAIN_CONTENT_ID = 'main-content';

/** Install and update prompts: after the first page, never a reason for the layout to fail. */
const PwaLayer = lazy(() => import('../pwa/pwa-layer').catch(() => ({ default: () => null })));

/**
 * A prerendered page (src/prerender) is on screen before its code: until React has adopted it,
 * its controls are disabled, since what is typed or chosen then would not reach the app. Its own
 * component, so that enabling them re-renders nothing else (the children are the same elements).
 */
function UntilHydrated({
  children,
  worksWithoutScript = false,
}: {
  children: ReactNode;
  worksWithoutScript?: boolean;
}) {
  return (
    <fieldset disabled={!useHydrated() && !worksWithoutScript} className="contents">
      {children}
    </fieldset>
  );
}

/**
 * Pages whose forms work before the script has arrived (a plain form that the server answers,
 * then enhanced): a person asking for blood on a slow phone sends the request in seconds, not
 * after the whole app has downloaded (issue #18).
 */
const WORKS_WITHOUT_SCRIPT: ReadonlySet<string> = new Set(['/emergency']);

export function RootLayout() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const previousPath = useRef(pathname);
  const [isPwaLayerDue, setPwaLayerDue] = useState(false);
  useEffect(() => afterLoad(() => setPwaLayerDue(true)), []);

  // After client-side navigation, start keyboard and screen-reader users at the new content.
  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-50 rounded-lg bg-white px-4 py-3 font-semibold text-slate-900 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('skipToContent')}
      </a>
      <DemoDataBanner />
      <UntilHydrated>
        <Header />
      </UntilHydrated>
      <main id={MAIN_CONTENT_ID} ref={mainRef} tabIndex={-1} className="flex-1">
        <UntilHydrated worksWithoutScript={WORKS_WITHOUT_SCRIPT.has(pathname)}>
          <ErrorBoundary
            resetKeys={[pathname, search]}
            fallback={({ errorId, reset }) => <ErrorScreen errorId={errorId} onReset={reset} />}
          >
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </UntilHydrated>
      </main>
      <UntilHydrated>
        <Footer />
      </UntilHydrated>
      {isPwaLayerDue && (
        <Suspense fallback={null}>
          <PwaLayer />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}

/** The router's last resort, for errors in the layout itself (header, footer). */
export function RootErrorScreen() {
  const error = useRouteError();
  const [errorId] = useState(createErrorId);
  useEffect(() => {
    console.error(`[${errorId}]`, error);
  }, [error, errorId]);
  return (
    <main className="min-h-dvh">
      <ErrorScreen errorId={errorId} onReset={() => window.location.reload()} />
    </main>
  );
}
