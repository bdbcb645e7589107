import { describe, expect, it } from 'vitest';
import { addDaysToIsoDate, calendarDaysUntil, localIsoDate } from './dates';

describe('dates', () => {
  it('counts whole Indian calendar days to a day or a moment', () => {
    // 23:30 IST on 21 November.
    const now = new Date('2026-11-21T18:00:00Z');
    expect(calendarDaysUntil(new Date('2026-11-21T18:45:00Z'), now)).toBe(1); // 00:15 IST, 22nd
    expect(calendarDaysUntil(new Date('2026-11-21T00:30:00Z'), now)).toBe(0); // 06:00 IST, 21st
    expect(calendarDaysUntil('2026-12-01', now)).toBe(10);
    expect(calendarDaysUntil('2026-11-01', now)).toBe(-20);
  });

  it('counts a moment on its Indian day, whatever the time zone of the device', () => {
    // 06:25 IST on 26 November (00:55 UTC); eligible from 00:00 IST on 16 March, which is
    // still 15 March in UTC: 110 days, not 109.
    const now = new Date('2026-11-26T00:55:00Z');
    expect(calendarDaysUntil('2027-03-15T18:30:00.000Z', now)).toBe(110);
    // 00:30 IST on 27 November is still the 26th in UTC: the Indian day has moved on.
    expect(calendarDaysUntil('2027-03-15T18:30:00.000Z', new Date('2026-11-26T19:00:00Z'))).toBe(
      109,
    );
  });

  it('adds calendar days across months and years', () => {
    expect(addDaysToIsoDate('2026-12-25', 90)).toBe('2027-03-25');
    expect(addDaysToIsoDate('2028-02-28', 1)).toBe('2028-02-29');
  });

  it("writes today's Indian date as YYYY-MM-DD, whatever the device's time zone", () => {
    // 00:30 IST on 6 January: the UTC date is still the 5th.
    expect(localIsoDate(new Date('2026-01-05T19:00:00Z'))).toBe('2026-01-06');
    expect(localIsoDate(new Date('2026-01-05T18:29:59Z'))).toBe('2026-01-05');
  });
});
