import { STOCK_REMINDER_AFTER_MS } from '@bdms/shared';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bloodStock, facilities, hospitals, users } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import type { MailLogger } from '../notifications/mail/mailer';
import type { Notifier } from '../notifications/notifier';
import { localDate } from '../notifications/templates';
import { createPeriodicJob } from '../../lib/periodic-job';

export const STOCK_REMINDER_JOB_INTERVAL_MS = 60 * 60_000;

export interface StockReminderJobDeps {
  db: Db;
  notifier: Pick<Notifier, 'notifyMany' | 'kick'>;
  now?: () => number;
  logger?: MailLogger;
  intervalMs?: number;
}

/**
 * Hourly: reminds the accounts of each verified, enabled blood centre whose stock has not been
 * confirmed for 3 days, once per lapse (a later update starts a new one). Each reminder is
 * claimed by one conditional update of the hospital row, so several servers never send it twice.
 */
export function createStockReminderJob(deps: StockReminderJobDeps) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  async function runOnce(): Promise<{ reminded: number }> {
    const at = now();
    const lastUpdate = sql<Date>`max(${bloodStock.updatedAt})`;
    const due = await db
      .select({
        hospitalId: hospitals.id,
        facilityName: facilities.name,
        lastUpdate,
      })
      .from(hospitals)
      .innerJoin(facilities, eq(facilities.id, hospitals.facilityId))
      .innerJoin(bloodStock, eq(bloodStock.facilityId, hospitals.facilityId))
      .where(
        and(
          eq(hospitals.verificationStatus, 'verified'),
          isNull(hospitals.disabledAt),
          isNotNull(hospitals.facilityId),
        ),
      )
      .groupBy(hospitals.id, facilities.name, hospitals.stockRemindedAt)
      .having(
        and(
          lt(lastUpdate, new Date(at - STOCK_REMINDER_AFTER_MS)),
          or(isNull(hospitals.stockRemindedAt), lt(hospitals.stockRemindedAt, lastUpdate)),
        ),
      );
    let reminded = 0;
    for (const centre of due) {
      const last = new Date(centre.lastUpdate);
      const sent = await db.transaction(async (tx) => {
        const claimed = await tx
          .update(hospitals)
          .set({ stockRemindedAt: new Date(at) })
          .where(
            and(
              eq(hospitals.id, centre.hospitalId),
              or(isNull(hospitals.stockRemindedAt), lt(hospitals.stockRemindedAt, last)),
            ),
          )
          .returning({ id: hospitals.id });
        if (claimed.length === 0) return false;
        const accounts = await tx
          .select({ id: users.id })
          .from(users)
          .where(
            and(
              eq(users.hospitalId, centre.hospitalId),
              eq(users.role, 'hospital'),
              isNull(users.deletedAt),
            ),
          );
        await deps.notifier.notifyMany(
          tx,
          accounts.map((account) => ({
            userId: account.id,
            input: {
              type: 'stock.reminder',
              params: { centre: centre.facilityName, date: localDate(last) },
              link: '/hospital/stock',
              reachOut: true,
            },
          })),
        );
        await createActivityLog(tx).record({
          action: 'stock.reminded',
          targetType: 'hospital',
          targetId: centre.hospitalId,
          details: { lastUpdate: last.toISOString(), accounts: accounts.length },
        });
        return true;
      });
      if (sent) reminded += 1;
    }
    if (reminded > 0) deps.notifier.kick();
    return { reminded };
  }

  return createPeriodicJob({
    name: 'stock reminder job',
    intervalMs: deps.intervalMs ?? STOCK_REMINDER_JOB_INTERVAL_MS,
    runOnce,
    logger: deps.logger,
  });
}

export type StockReminderJob = ReturnType<typeof createStockReminderJob>;
