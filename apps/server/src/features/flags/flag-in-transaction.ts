import { FEATURE_FLAG_DEFAULTS, type FeatureFlag } from '@bdms/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { featureFlags } from '../../db/schema';
import { oncePerTransaction } from '../../lib/transaction-memo';

/**
 * A flag as the transaction `tx` sees it: read through `tx`, not the flags service, because
 * PGlite runs one transaction at a time and a query outside it would wait for it forever.
 */
export function flagInTransaction(tx: Db, flag: FeatureFlag): Promise<boolean> {
  // Read once per transaction and flag: the notifier asks for every recipient (issue #20).
  return oncePerTransaction(tx, `flag:${flag}`, async () => {
    const [row] = await tx
      .select({ enabled: featureFlags.enabled })
      .from(featureFlags)
      .where(eq(featureFlags.key, flag))
      .limit(1);
    return row?.enabled ?? FEATURE_FLAG_DEFAULTS[flag];
  });
}
