import { INDIA_TIME_ZONE, TRANSLATED_LANGUAGES } from '@bdms/shared';

/**
 * How the app writes dates, times and numbers: as in India (docs/decisions/006). The Intl locale
 * is the interface language in India (en-IN, hi-IN, bn-IN…), so dates read "25/11/2026" and
 * "25 Nov 2026" and numbers group by lakh (12,34,567). Languages without a translation show
 * English text, so their figures are written en-IN too, never French or Arabic dates amid
 * English sentences. Digits are the international ones in every language: the Constitution of
 * India (Article 343(1)) prescribes them for official use, and phone numbers, PIN codes and
 * blood units on the same screen are written with them (bn-IN and mr-IN default to native).
 */
export function intlLocale(language: string): string {
  const base = language.toLowerCase().split('-')[0] ?? 'en';
  if (!(TRANSLATED_LANGUAGES as readonly string[]).includes(base)) return 'en-IN';
  return `${base}-IN-u-nu-latn`;
}

/** Languages whose CLDR data says "lakh"/"crore" (te and ta say "million"): see formatLargeFigure. */
const LAKH_WORD_LANGUAGES = new Set(['en', 'hi', 'bn', 'mr']);
const LAKH = 100_000;

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make();
    cache.set(key, format);
  }
  return format;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A server value as a moment: `YYYY-MM-DD` is a calendar day (shown as that day, whatever the
 * zone); an ISO date-time is a moment, shown in Indian time.
 */
function toMoment(value: string | Date): { date: Date; timeZone: string } {
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    return { date: new Date(`${value}T00:00:00Z`), timeZone: 'UTC' };
  }
  return { date: value instanceof Date ? value : new Date(value), timeZone: INDIA_TIME_ZONE };
}

export type DateFormatStyle = 'numeric' | 'medium' | 'long';

const DATE_OPTIONS: Record<DateFormatStyle, Intl.DateTimeFormatOptions> = {
  numeric: { day: '2-digit', month: '2-digit', year: 'numeric' },
  medium: { dateStyle: 'medium' },
  long: { dateStyle: 'long' },
};

/**
 * "25/11/2026" (numeric), "25 Nov 2026" (medium), "25 November 2026" (long): the day in India,
 * so 00:30 IST is already the next day whatever the device's zone. '' for an invalid value.
 */
export function formatDate(
  value: string | Date,
  language: string,
  style: DateFormatStyle = 'medium',
): string {
  const { date, timeZone } = toMoment(value);
  if (Number.isNaN(date.getTime())) return '';
  const locale = intlLocale(language);
  return cached(
    `d ${locale} ${style} ${timeZone}`,
    () => new Intl.DateTimeFormat(locale, { ...DATE_OPTIONS[style], timeZone }),
  ).format(date);
}

/** "25 Nov 2026, 12:30 am": the date and time in IST. A calendar day has no time: date only. */
export function formatDateTime(value: string | Date, language: string): string {
  const { date, timeZone } = toMoment(value);
  if (Number.isNaN(date.getTime())) return '';
  if (timeZone === 'UTC') return formatDate(value, language);
  const locale = intlLocale(language);
  return cached(
    `dt ${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: INDIA_TIME_ZONE,
      }),
  ).format(date);
}

/** "12:30 am" in IST. */
export function formatTime(value: string | Date, language: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const locale = intlLocale(language);
  return cached(
    `t ${locale}`,
    () => new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: INDIA_TIME_ZONE }),
  ).format(date);
}

/** An exact count with Indian grouping: 12,34,567 (admin tables, where every unit matters). */
export function formatCount(value: number, language: string): string {
  const locale = intlLocale(language);
  return cached(`n ${locale}`, () => new Intl.NumberFormat(locale)).format(value);
}

/**
 * A headline figure as a reader says it: "12.3 lakh", "4.5 crore", "12.3 लाख" from one lakh up,
 * exact below (98,765). Where the language's Intl data counts in millions (te, ta: "1.2
 * మిలియన్లు"), the exact figure with lakh grouping instead: Indian readers count in lakhs.
 */
export function formatLargeFigure(value: number, language: string): string {
  const locale = intlLocale(language);
  const base = locale.split('-')[0]!;
  if (Math.abs(value) < LAKH || !LAKH_WORD_LANGUAGES.has(base)) return formatCount(value, language);
  return cached(
    `c ${locale}`,
    () =>
      new Intl.NumberFormat(locale, {
        notation: 'compact',
        compactDisplay: 'long',
        maximumFractionDigits: 1,
      }),
  ).format(value);
}

/**
 * How long ago, as a reader says it: "2 hours ago", "yesterday", "3 days ago" (stock figures show
 * their age everywhere). Under a minute is "now".
 */
export function formatTimeAgo(value: string | Date, language: string, now = Date.now()): string {
  const locale = intlLocale(language);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const diff = new Date(value).getTime() - now;
  const abs = Math.abs(diff);
  if (abs < 60_000) return format.format(0, 'second');
  if (abs < 3_600_000) return format.format(Math.round(diff / 60_000), 'minute');
  if (abs < 86_400_000) return format.format(Math.round(diff / 3_600_000), 'hour');
  return format.format(Math.round(diff / 86_400_000), 'day');
}
