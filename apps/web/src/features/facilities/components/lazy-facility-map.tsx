import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../../components/error-boundary';
import { Button } from '../../../components/button';
import { lazyWithRetry, resetFailedChunks } from '../../../lib/lazy-with-retry';
import { cn } from '../../../lib/cn';
import type { FacilityMapProps } from './facility-map';

export type { MapOrigin, MapPoint } from './facility-map';

/** Leaflet, react-leaflet and their CSS: downloaded the first time a map is shown. */
const FacilityMap = lazyWithRetry<FacilityMapProps>('facility-map', () => import('./facility-map'));

/** True once the element has come near the screen (at once where the browser cannot tell). */
function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  // Not on the server: a prerendered page shows the placeholder, as the browser does at first.
  const [isNear, setIsNear] = useState(
    () => typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined',
  );
  useEffect(() => {
    const element = ref.current;
    if (isNear || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setIsNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [isNear]);
  return { ref, isNear };
}

/**
 * The map, in its own chunk. The page never depends on it: while it loads there is a placeholder
 * of the same size, and if it cannot load (bad network) a note says the list has everything.
 */
export function LazyFacilityMap({
  whenNearScreen = false,
  ...props
}: FacilityMapProps & {
  /** Download the map only when it scrolls near the screen (a map below the content). */
  whenNearScreen?: boolean;
}) {
  const { t } = useTranslation('facilities');
  const { ref, isNear } = useNearScreen<HTMLDivElement>();
  const frame = cn(
    'flex items-center justify-center rounded-xl border border-slate-300 bg-slate-100 p-4 text-center text-slate-700',
    props.className,
  );
  if (whenNearScreen && !isNear) {
    return <div ref={ref} className={frame} />;
  }
  return (
    <ErrorBoundary
      onReset={resetFailedChunks}
      fallback={({ reset }) => (
        <div className={frame}>
          <div>
            <p>{t('map.failed')}</p>
            <Button variant="secondary" className="mt-3" onClick={reset}>
              {t('map.retry')}
            </Button>
          </div>
        </div>
      )}
    >
      <Suspense fallback={<div className={frame}>{t('map.loading')}</div>}>
        <FacilityMap {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
