import { and, eq, getTableName, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { readThroughCache } from '../db/read-cache';
import { users } from '../db/schema';

/**
 * The ids of every administrator whose account is live: the people a staff alert goes to. Read
 * through `db` (a transaction inside one), and between writes to users from memory
 * (db/read-cache.ts): a guest request, a verification and a stock alert each ask.
 */
export function liveAdminIds(db: Db): Promise<string[]> {
  return readThroughCache(db, 'live-admin-ids', [getTableName(users)], async () => {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
    return rows.map((row) => row.id);
  });
}
