import {
  AVAILABILITY_TTL_DAYS,
  addIsoDays,
  startOfIndianDay,
  type Availability,
} from '@bdms/shared';
import type { UserRow } from '../db/schema';

const DAY_MS = 86_400_000;
/** The reminder goes out, and `needsReconfirmation` turns true, this many days before expiry. */
export const AVAILABILITY_REMINDER_DAYS = 7;

export type AvailabilityFields = Pick<
  UserRow,
  'available' | 'availableUntil' | 'availabilityConfirmedAt'
>;

/** When the donor's "available" lapses unless reconfirmed; null when they are not available. */
export function availabilityExpiresAt(row: AvailabilityFields): Date | null {
  if (!row.available || !row.availabilityConfirmedAt) return null;
  return new Date(row.availabilityConfirmedAt.getTime() + AVAILABILITY_TTL_DAYS * DAY_MS);
}

/** The end of the `until` day (inclusive): an Indian day, so 00:00 IST of the next day. */
export function availableUntilEnd(until: string): Date {
  return startOfIndianDay(addIsoDays(until, 1));
}

/**
 * Whether the donor counts as available at `now`: they said so, said it within the last
 * AVAILABILITY_TTL_DAYS days, and their `until` day (if any) has not passed.
 */
export function isAvailableNow(row: AvailabilityFields, now: number): boolean {
  const expiresAt = availabilityExpiresAt(row);
  if (!expiresAt || now >= expiresAt.getTime()) return false;
  return !row.availableUntil || now < availableUntilEnd(row.availableUntil).getTime();
}

/** The availability object of `GET|PUT /users/{id}/availability`. */
export function toAvailabilityView(row: AvailabilityFields, now: number): Availability {
  const expiresAt = availabilityExpiresAt(row);
  return {
    available: isAvailableNow(row, now),
    until: row.availableUntil,
    confirmedAt: row.availabilityConfirmedAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
    needsReconfirmation:
      expiresAt !== null && now >= expiresAt.getTime() - AVAILABILITY_REMINDER_DAYS * DAY_MS,
  };
}

/** The columns to write when a donor sets (or reconfirms) their availability. */
export function availabilityChange(
  available: boolean,
  until: string | null,
  now: number,
): Pick<
  UserRow,
  'available' | 'availableUntil' | 'availabilityConfirmedAt' | 'availabilityRemindedAt'
> {
  return {
    available,
    availableUntil: available ? until : null,
    availabilityConfirmedAt: new Date(now),
    availabilityRemindedAt: null,
  };
}
