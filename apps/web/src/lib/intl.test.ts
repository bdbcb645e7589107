import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatLargeFigure,
  formatTime,
  intlLocale,
} from './intl';

// 00:30 IST on 26 November 2026 is still 25 November in UTC (19:00).
const HALF_PAST_MIDNIGHT_IST = new Date('2026-11-25T19:00:00Z');

describe('intlLocale', () => {
  it.each([
    ['en', 'en-IN-u-nu-latn'],
    ['hi', 'hi-IN-u-nu-latn'],
    ['bn', 'bn-IN-u-nu-latn'],
    ['ta', 'ta-IN-u-nu-latn'],
    ['es', 'es-IN-u-nu-latn'],
    ['ar', 'en-IN'],
    ['fr', 'en-IN'],
  ])('writes %s as %s', (language, locale) => {
    expect(intlLocale(language)).toBe(locale);
  });
});

describe('formatDate', () => {
  it('writes the day in India, numeric and medium: 00:30 IST is already the next day', () => {
    expect(formatDate(HALF_PAST_MIDNIGHT_IST, 'en', 'numeric')).toBe('26/11/2026');
    expect(formatDate(HALF_PAST_MIDNIGHT_IST, 'en')).toBe('26 Nov 2026');
    expect(formatDate(HALF_PAST_MIDNIGHT_IST.toISOString(), 'en')).toBe('26 Nov 2026');
  });

  it('keeps a calendar date as that day, whatever the zone', () => {
    expect(formatDate('2026-11-25', 'en', 'numeric')).toBe('25/11/2026');
    expect(formatDate('2026-11-25', 'en')).toBe('25 Nov 2026');
    expect(formatDate('2026-11-25', 'en', 'long')).toBe('25 November 2026');
  });

  it('writes Hindi and Bengali dates with international digits', () => {
    expect(formatDate('2026-11-25', 'hi')).toMatch(/^25 नव.* 2026$/);
    expect(formatDate('2026-11-25', 'bn', 'numeric')).toBe('25/11/2026');
    expect(formatDate('2026-11-25', 'mr', 'numeric')).toBe('25/11/2026');
  });

  it('writes untranslated languages (shown in English) as en-IN', () => {
    expect(formatDate('2026-11-25', 'ar')).toBe('25 Nov 2026');
    expect(formatDate('2026-11-25', 'fr', 'numeric')).toBe('25/11/2026');
  });

  it('returns nothing for an invalid value', () => {
    expect(formatDate('not a date', 'en')).toBe('');
  });
});

describe('formatDateTime and formatTime', () => {
  it('writes times in IST', () => {
    expect(formatTime(HALF_PAST_MIDNIGHT_IST, 'en')).toBe('12:30 am');
    expect(formatDateTime(HALF_PAST_MIDNIGHT_IST, 'en')).toBe('26 Nov 2026, 12:30 am');
    expect(formatTime('2026-11-26T08:15:00Z', 'en')).toBe('1:45 pm');
  });

  it('gives a calendar date no time', () => {
    expect(formatDateTime('2026-11-25', 'en')).toBe('25 Nov 2026');
  });
});

describe('formatCount', () => {
  it('groups by lakh and crore', () => {
    expect(formatCount(1234567, 'en')).toBe('12,34,567');
    expect(formatCount(123456789, 'hi')).toBe('12,34,56,789');
    expect(formatCount(1234567, 'bn')).toBe('12,34,567');
    expect(formatCount(1234567, 'ar')).toBe('12,34,567');
    expect(formatCount(999, 'en')).toBe('999');
  });
});

describe('formatLargeFigure', () => {
  // Intl joins number and word with a no-break space, so "12.3" never ends a line alone.
  const spoken = (value: number, language: string) =>
    formatLargeFigure(value, language).replace(/\s/gu, ' ');

  it('says lakh and crore from one lakh up', () => {
    expect(spoken(1234567, 'en')).toBe('12.3 lakh');
    expect(spoken(100000, 'en')).toBe('1 lakh');
    expect(spoken(45600000, 'en')).toBe('4.6 crore');
    expect(spoken(1234567, 'hi')).toBe('12.3 लाख');
    expect(spoken(1234567, 'mr')).toBe('12.3 लाख');
    expect(spoken(1234567, 'bn')).toBe('12.3 লাখ');
  });

  it('keeps smaller figures exact', () => {
    expect(formatLargeFigure(98765, 'en')).toBe('98,765');
    expect(formatLargeFigure(42, 'hi')).toBe('42');
  });

  it('writes the exact figure with lakh grouping where Intl would say million (Telugu, Tamil)', () => {
    expect(formatLargeFigure(1234567, 'te')).toBe('12,34,567');
    expect(formatLargeFigure(1234567, 'ta')).toBe('12,34,567');
  });
});
