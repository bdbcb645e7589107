import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DAY, INDIA_TIME_ZONE, todayInIndia } from '@bdms/shared';
import { intlLocale } from './intl';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * YYYY-MM-DD of a moment in India: dates are Indian dates, so "today" in every form (the latest
 * date a questionnaire, a donation or an availability may carry) is today in Asia/Kolkata —
 * also between 00:00 and 05:30 IST, and on a device set to another time zone.
 */
export function localIsoDate(date: Date = new Date()): string {
  return todayInIndia(date);
}

/** YYYY-MM-DD plus `days` calendar days (negative to go back). */
export function addDaysToIsoDate(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + days));
  return date.toISOString().slice(0, 10);
}

/**
 * A server value as a date: `YYYY-MM-DD` is a calendar day (kept as such, whatever the time
 * zone); an ISO date-time is a moment (`timeZone` undefined here: the device's calendar for day
 * counts; shown in IST by useFormatDate).
 */
function toDisplay(value: string | Date): { date: Date; timeZone: string | undefined } {
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    return { date: new Date(`${value}T00:00:00Z`), timeZone: 'UTC' };
  }
  return { date: value instanceof Date ? value : new Date(value), timeZone: undefined };
}

/**
 * Whole Indian calendar days from today to the day of `target` (0 today, negative when past):
 * a moment counts on its day in India (a donor eligible from 00:00 IST on 16 March is eligible
 * on the 16th, also on a device set to UTC, where that moment is still the 15th).
 */
export function calendarDaysUntil(target: string | Date, now: Date = new Date()): number {
  const targetDay =
    typeof target === 'string' && DATE_ONLY.test(target)
      ? target
      : todayInIndia(target instanceof Date ? target : new Date(target));
  const day = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`);
  return Math.round((day(targetDay) - day(todayInIndia(now))) / DAY);
}

export type DateStyle = 'medium' | 'long';

/**
 * Formats dates and date-times in the current language as in India ("12 Mar 2026", "12 March
 * 2026", "12 Mar 2026, 12:30 am"): moments in IST, whatever the device's time zone.
 */
export function useFormatDate() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback(
    (value: string | Date, style: DateStyle = 'medium', withTime = false): string => {
      const { date, timeZone } = toDisplay(value);
      if (Number.isNaN(date.getTime())) return '';
      return new Intl.DateTimeFormat(intlLocale(language), {
        dateStyle: style,
        ...(withTime && !timeZone ? { timeStyle: 'short' } : {}),
        timeZone: timeZone ?? INDIA_TIME_ZONE,
      }).format(date);
    },
    [language],
  );
}
