import { WEB_VITAL_THRESHOLDS } from '@bdms/shared';

/**
 * Web vitals (product spec section 9): LCP, FID, INP, CLS and FCP, each rated with the spec's
 * thresholds: above the first value "needs improvement", above the second "poor".
 */

export type VitalName = keyof typeof WEB_VITAL_THRESHOLDS;
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

export interface VitalReport {
  name: VitalName;
  /** Milliseconds; CLS is unitless. */
  value: number;
  rating: VitalRating;
}

export function rateVital(name: VitalName, value: number): VitalRating {
  const [needsImprovement, poor] = WEB_VITAL_THRESHOLDS[name];
  if (value > poor) return 'poor';
  if (value > needsImprovement) return 'needs-improvement';
  return 'good';
}

/**
 * First input delay: web-vitals 6 no longer reports FID, so it is read from the browser's
 * `first-input` entry (the delay between the first interaction and its handlers starting).
 */
function observeFirstInput(report: (vital: VitalReport) => void): void {
  if (typeof PerformanceObserver === 'undefined') return;
  if (!PerformanceObserver.supportedEntryTypes?.includes('first-input')) return;
  const observer = new PerformanceObserver((list) => {
    const entry = list.getEntries()[0] as PerformanceEventTiming | undefined;
    if (!entry) return;
    observer.disconnect();
    const value = entry.processingStart - entry.startTime;
    report({ name: 'FID', value, rating: rateVital('FID', value) });
  });
  observer.observe({ type: 'first-input', buffered: true });
}

/** Starts measuring (web-vitals is downloaded here, after the first page has loaded). */
export async function startVitals(report: (vital: VitalReport) => void): Promise<void> {
  const { onCLS, onFCP, onINP, onLCP } = await import('web-vitals');
  const forward = ({ name, value }: { name: string; value: number }) => {
    const vital = name as VitalName;
    report({ name: vital, value, rating: rateVital(vital, value) });
  };
  onLCP(forward);
  onFCP(forward);
  onCLS(forward);
  onINP(forward);
  observeFirstInput(report);
}
