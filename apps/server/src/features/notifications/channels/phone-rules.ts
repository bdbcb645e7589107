import { IST_OFFSET_MS, startOfIndianDay, todayInIndia } from '@bdms/shared';
import { randomInt } from 'node:crypto';
import { and, count, eq, gte } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { notificationDeliveries, type DeliveryChannel } from '../../../db/schema';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Quiet hours for non-critical SMS/WhatsApp alerts, India time: 22:00 to 07:00. */
export const QUIET_FROM_HOUR = 22;
export const QUIET_UNTIL_HOUR = 7;

/**
 * When a non-critical phone alert raised at `at` may go out: null when not in quiet hours,
 * else 07:00 India time next (the same Indian day before 07:00, the next after 22:00).
 */
export function quietHoursEnd(at: Date): Date | null {
  const local = at.getTime() + IST_OFFSET_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS;
  const hour = (local - dayStart) / HOUR_MS;
  if (hour >= QUIET_UNTIL_HOUR && hour < QUIET_FROM_HOUR) return null;
  const wake = dayStart + QUIET_UNTIL_HOUR * HOUR_MS + (hour >= QUIET_FROM_HOUR ? DAY_MS : 0);
  return new Date(wake - IST_OFFSET_MS);
}

/**
 * Messages of the outbox (alerts, a guest requester's messages) of `channel` sent since 00:00
 * India time: what the channel's daily budget counts. Codes and answers to replies are written
 * down too (kind `code`/`answer`) and have budgets of their own (issue #32 items 8, 11).
 */
export async function sentToday(db: Db, channel: DeliveryChannel, now: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.channel, channel),
        eq(notificationDeliveries.kind, 'outbox'),
        eq(notificationDeliveries.status, 'sent'),
        gte(notificationDeliveries.sentAt, startOfIndianDay(todayInIndia(now))),
      ),
    );
  return row?.n ?? 0;
}

// The tracking-code alphabet: no 0/O, 1/I/L or U, so a code read aloud is not mistaken.
const SHORT_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz';
export const SHORT_CODE_LENGTH = 8;

/** The code of a short link `/r/<code>`: 51^8 ≈ 4.6 × 10^13, unguessable in practice. */
export function generateShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i += 1) {
    code += SHORT_ALPHABET[randomInt(SHORT_ALPHABET.length)];
  }
  return code;
}
