import { and, count, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { ClientLogLevel } from '@bdms/shared';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import { clientLogs, type ClientLogRow } from '../../db/schema';

export type NewClientLog = typeof clientLogs.$inferInsert;

export function createClientLogsRepository(db: Db) {
  return {
    async insertMany(rows: NewClientLog[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db.insert(clientLogs).values(rows).returning({ id: clientLogs.id });
      return inserted.length;
    },

    async deleteReceivedBefore(cutoff: Date): Promise<number> {
      const rows = await db
        .delete(clientLogs)
        .where(lt(clientLogs.receivedAt, cutoff))
        .returning({ id: clientLogs.id });
      return rows.length;
    },

    /** Newest first. */
    async list(filter: {
      level?: ClientLogLevel;
      page: number;
      pageSize: number;
    }): Promise<{ rows: ClientLogRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (filter.level) conditions.push(eq(clientLogs.level, filter.level));
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const [rows, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(clientLogs)
            .where(where)
            .orderBy(desc(clientLogs.receivedAt), desc(clientLogs.occurredAt))
            .limit(filter.pageSize)
            .offset((filter.page - 1) * filter.pageSize),
        () => db.select({ total: count() }).from(clientLogs).where(where),
      ]);
      return { rows, total: totals?.total ?? 0 };
    },
  };
}
