import { describe, expect, it } from 'vitest';
import { ageOn, isIsoDate } from './dates';

describe('ageOn', () => {
  const on = new Date('2026-11-21T10:00:00Z');
  it('counts a birthday today as a completed year', () => {
    expect(ageOn('2008-11-21', on)).toBe(18);
  });
  it('does not count a birthday tomorrow', () => {
    expect(ageOn('2008-11-22', on)).toBe(17);
  });
  it('handles earlier months', () => {
    expect(ageOn('1961-01-01', on)).toBe(65);
    expect(ageOn('1960-11-20', on)).toBe(66);
  });
});

describe('isIsoDate', () => {
  it('accepts real dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('24-01-01')).toBe(false);
  });
});
