import { describe, expect, it } from 'vitest';
import { rateVital } from './vitals';

describe('web vitals ratings (the first value "needs improvement", the second "poor")', () => {
  it.each([
    ['LCP', 2500, 'good'],
    ['LCP', 2501, 'needs-improvement'],
    ['LCP', 4000, 'needs-improvement'],
    ['LCP', 4001, 'poor'],
    ['FID', 100, 'good'],
    ['FID', 101, 'needs-improvement'],
    ['FID', 301, 'poor'],
    ['CLS', 0.1, 'good'],
    ['CLS', 0.11, 'needs-improvement'],
    ['CLS', 0.26, 'poor'],
    ['FCP', 1800, 'good'],
    ['FCP', 1801, 'needs-improvement'],
    ['FCP', 3001, 'poor'],
    ['INP', 200, 'good'],
    ['INP', 501, 'poor'],
  ] as const)('%s %s is %s', (name, value, rating) => {
    expect(rateVital(name, value)).toBe(rating);
  });
});
