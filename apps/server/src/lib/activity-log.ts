import type { Db } from '../db/client';
import { activityLog, type NewActivityLogRow } from '../db/schema';

export interface ActivityEntry {
  action: string;
  actorId?: string | null;
  actorRole?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  requestId?: string | null;
}

/**
 * The audit trail is written by many features, so it lives outside them. Pass a transaction
 * as `db` to record an entry atomically with the change it describes.
 */
export function createActivityLog(db: Db) {
  return {
    async record(entry: ActivityEntry): Promise<void> {
      const row: NewActivityLogRow = { ...entry, details: entry.details ?? {} };
      await db.insert(activityLog).values(row);
    },
  };
}

export type ActivityLog = ReturnType<typeof createActivityLog>;
