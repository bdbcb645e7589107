import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { INDIA_TIME_ZONE } from '@bdms/shared';
import { intlLocale } from '../../../lib/intl';

const DAY_MS = 86_400_000;

/**
 * Numbers, dates and times in the reader's language as written in India (Intl does the work):
 * 12,34,567; 25 Nov 2026; times in IST.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = intlLocale(i18n.language);
  return useMemo(() => {
    const numberFormat = new Intl.NumberFormat(language);
    const dateFormat = new Intl.DateTimeFormat(language, {
      dateStyle: 'medium',
      timeZone: INDIA_TIME_ZONE,
    });
    const dateTimeFormat = new Intl.DateTimeFormat(language, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: INDIA_TIME_ZONE,
    });
    const relativeFormat = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
    const isValid = (value: string | Date | null | undefined): value is string | Date =>
      value !== null && value !== undefined && !Number.isNaN(toDate(value).getTime());
    return {
      number: (value: number) => numberFormat.format(value),
      date: (value: string | Date | null | undefined) =>
        isValid(value) ? dateFormat.format(toDate(value)) : '',
      dateTime: (value: string | Date | null | undefined) =>
        isValid(value) ? dateTimeFormat.format(toDate(value)) : '',
      /** "5 minutes ago", "yesterday", "3 days ago"; the full date beyond a month. */
      relative: (value: string | Date, now = Date.now()) => {
        if (!isValid(value)) return '';
        const diff = toDate(value).getTime() - now;
        const abs = Math.abs(diff);
        if (abs < 60_000) return relativeFormat.format(0, 'second');
        if (abs < 3_600_000) return relativeFormat.format(Math.round(diff / 60_000), 'minute');
        if (abs < DAY_MS) return relativeFormat.format(Math.round(diff / 3_600_000), 'hour');
        if (abs < 30 * DAY_MS) return relativeFormat.format(Math.round(diff / DAY_MS), 'day');
        return dateFormat.format(toDate(value));
      },
      /** YYYY-MM-DD read as a calendar date (no time zone shift). */
      calendarDate: (value: string | null | undefined) => {
        if (!value) return '';
        const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
          ? new Date(`${value}T00:00:00Z`)
          : new Date(value);
        if (Number.isNaN(date.getTime())) return value;
        return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          date,
        );
      },
      fileSize: (bytes: number) =>
        bytes >= 1024 * 1024
          ? new Intl.NumberFormat(language, {
              style: 'unit',
              unit: 'megabyte',
              maximumFractionDigits: 1,
            }).format(bytes / (1024 * 1024))
          : new Intl.NumberFormat(language, {
              style: 'unit',
              unit: 'kilobyte',
              maximumFractionDigits: 0,
            }).format(Math.max(1, Math.round(bytes / 1024))),
    };
  }, [language]);
}

export type Format = ReturnType<typeof useFormat>;

/** A phone in E.164 (+91…) as an Indian reader writes it: +91 98765 43210 (one shared formatter). */
export { formatIndianPhone as formatPhone } from '@bdms/shared';
