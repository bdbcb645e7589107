import { describe, expect, it } from 'vitest';
import { addDaysToIsoDate, calendarDaysUntil, localIsoDate } from './dates';

describe('dates', () => {
  it('counts whole calendar days to a day or a moment', () => {
    const now = new Date(2026, 10, 21, 23, 30);
    expect(calendarDaysUntil(new Date(2026, 10, 22, 0, 15), now)).toBe(1);
    expect(calendarDaysUntil(new Date(2026, 10, 21, 6, 0), now)).toBe(0);
    expect(calendarDaysUntil('2026-12-01', now)).toBe(10);
    expect(calendarDaysUntil('2026-11-01', now)).toBe(-20);
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
