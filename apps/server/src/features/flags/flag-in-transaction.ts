import { FEATURE_FLAG_DEFAULTS, type FeatureFlag } from '@bdms/shared';
import { getTableName } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { readThroughCache } from '../../db/read-cache';
import { featureFlags } from '../../db/schema';
import { oncePerTransaction } from '../../lib/transaction-memo';

/**
 * A flag as the transaction `tx` sees it: read through `tx`, not the flags service, because
 * PGlite runs one transaction at a time and a query outside it would wait for it forever.
 */
export async function flagInTransaction(tx: Db, flag: FeatureFlag): Promise<boolean> {
  // Every flag in one statement, once per transaction: a verification asks for four (matching,
  // then each channel's), and the table holds a few rows (issue #20).
  // Between writes to the flags, from memory (db/read-cache.ts).
  const flags = await oncePerTransaction(tx, 'flags', () =>
    readThroughCache(tx, 'flags', [getTableName(featureFlags)], async () => {
      const rows = await tx
        .select({ key: featureFlags.key, enabled: featureFlags.enabled })
        .from(featureFlags);
      return new Map(rows.map((row) => [row.key, row.enabled]));
    }),
  );
  return flags.get(flag) ?? FEATURE_FLAG_DEFAULTS[flag];
}
