import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { featureFlags, type FeatureFlagRow, type FlagSource } from '../../db/schema';

export interface FlagWrite {
  key: string;
  enabled: boolean;
  source: FlagSource;
  updatedBy?: string | null;
}

export function createFlagsRepository(db: Db) {
  return {
    listAll(): Promise<FeatureFlagRow[]> {
      return db.select().from(featureFlags);
    },

    async upsertMany(rows: readonly FlagWrite[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(featureFlags)
        .values(rows.map((row) => ({ ...row, updatedBy: row.updatedBy ?? null })))
        .onConflictDoUpdate({
          target: featureFlags.key,
          set: {
            enabled: sql`excluded.enabled`,
            source: sql`excluded.source`,
            updatedBy: sql`excluded.updated_by`,
            updatedAt: sql`now()`,
          },
        });
    },

    /** Drops rows an earlier FEATURE_FLAGS wrote for flags it no longer names. */
    async deleteEnvRowsExcept(keys: readonly string[]): Promise<void> {
      const isEnv = eq(featureFlags.source, 'env');
      await db
        .delete(featureFlags)
        .where(keys.length > 0 ? and(isEnv, notInArray(featureFlags.key, [...keys])) : isEnv);
    },
  };
}

export type FlagsRepository = ReturnType<typeof createFlagsRepository>;
