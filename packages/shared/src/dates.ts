/**
 * Dates are Indian dates. India keeps one time zone, Asia/Kolkata (IST, UTC+05:30, no daylight
 * saving), so "today", a birthday or the day a deferral ends is a calendar day there: between
 * 00:00 and 05:30 IST the UTC date is still yesterday's, and no date rule may read it.
 */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';
/** IST is UTC+05:30 all year (no daylight saving since 1945). */
export const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

const toTime = (value: Date | number | string): number =>
  typeof value === 'number' ? value : new Date(value).getTime();

/** YYYY-MM-DD of a moment in India (what "today" means for every date rule and form). */
export function indianDate(at: Date | number | string = Date.now()): string {
  return new Date(toTime(at) + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Today in India, YYYY-MM-DD. */
export function todayInIndia(now: Date | number = Date.now()): string {
  return indianDate(now);
}

/** The moment a YYYY-MM-DD Indian day starts (00:00 IST). */
export function startOfIndianDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) - IST_OFFSET_MS);
}

/** YYYY-MM-DD plus `days` calendar days (negative to go back). */
export function addIsoDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * YYYY-MM-DD plus `months` calendar months; a day the target month lacks becomes its last day
 * (30 Nov + 3 months → 28 Feb), as date libraries count "N months after".
 */
export function addIsoMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The day (YYYY-MM-DD) someone born on `dateOfBirth` turns `years` old. Someone born on
 * 29 February has their birthday on 1 March in other years (the day after 28 February).
 */
export function birthdayAt(dateOfBirth: string, years: number): string {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  // Date.UTC rolls 29 Feb of a common year into 1 Mar.
  return new Date(Date.UTC(y + years, m - 1, d)).toISOString().slice(0, 10);
}

/** Whole years between a YYYY-MM-DD birth date and `on`, on the Indian calendar (00:00 IST). */
export function ageOn(dateOfBirth: string, on: Date | number = Date.now()): number {
  // Half-typed or garbled input (a form's refine runs on it too): NaN, never a throw.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return Number.NaN;
  const today = indianDate(on);
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return birthdayAt(dateOfBirth, years) <= today ? years : years - 1;
}

/** A real calendar date written YYYY-MM-DD (rejects 2024-02-30). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
