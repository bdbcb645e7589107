import { describe, expect, it } from 'vitest';
import {
  addIsoDays,
  addIsoMonths,
  ageOn,
  birthdayAt,
  indianDate,
  isIsoDate,
  startOfIndianDay,
  todayInIndia,
} from './dates';

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

describe('Indian dates (Asia/Kolkata, UTC+05:30)', () => {
  // 00:00–05:30 IST: the UTC date is still yesterday's.
  const earlyMorning = new Date('2026-11-20T19:00:00Z'); // 21 Nov, 00:30 IST

  it('says today is the Indian day between 00:00 and 05:30 IST', () => {
    expect(todayInIndia(earlyMorning)).toBe('2026-11-21');
    expect(indianDate(new Date('2026-11-20T18:29:59.999Z'))).toBe('2026-11-20');
    expect(indianDate(new Date('2026-11-20T18:30:00Z'))).toBe('2026-11-21');
    expect(startOfIndianDay('2026-11-21').toISOString()).toBe('2026-11-20T18:30:00.000Z');
  });

  it('counts a birthday from 00:00 IST, not 05:30', () => {
    expect(ageOn('2008-11-21', earlyMorning)).toBe(18);
    expect(ageOn('2008-11-21', new Date('2026-11-20T18:29:59Z'))).toBe(17);
  });

  it('gives NaN, not an error, for a half-typed date', () => {
    expect(ageOn('', earlyMorning)).toBeNaN();
    expect(ageOn('2008-1', earlyMorning)).toBeNaN();
  });

  it('puts a 29 February birthday on 1 March in other years', () => {
    expect(birthdayAt('2008-02-29', 18)).toBe('2026-03-01');
    expect(ageOn('2008-02-29', new Date('2026-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', new Date('2026-02-28T19:00:00Z'))).toBe(18);
  });

  it('adds calendar months, ending on the last day of a shorter month', () => {
    expect(addIsoMonths('2025-11-30', 3)).toBe('2026-02-28');
    expect(addIsoMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addIsoDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
