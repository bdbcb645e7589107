import {
  FEATURE_FLAG_DEFAULTS,
  FEATURE_FLAG_NAMES,
  FIXED_ON_FLAGS,
  isFeatureFlag,
  isFixedOnFlag,
  updateFeatureFlagsSchema,
  type AdminFlags,
  type FeatureFlag,
  type FeatureFlags,
  type FlagValueSource,
  type UpdateFeatureFlags,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import { createActivityLog, type ActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { validationDetails } from '../../lib/validation-details';
import { createFlagsRepository, type FlagsRepository } from './flags.repository';

export interface FlagsServiceDeps {
  flags: FlagsRepository;
  /** Runs multi-step writes in one transaction. */
  withTransaction<T>(
    work: (repos: { flags: FlagsRepository; activityLog: ActivityLog }) => Promise<T>,
  ): Promise<T>;
  /**
   * Another server process may change flags; the cache expires so it catches up. Writes made
   * through this process invalidate it at once.
   */
  cacheTtlMs?: number;
  now?: () => number;
  /** Called after a write, to tell the other instances (lib/change-bus: topic `flags`). */
  onChanged?: () => void;
}

export interface ChangeContext {
  actorRole?: string | null;
  requestId?: string | null;
}

export function mergeFlags(rows: readonly { key: string; enabled: boolean }[]): FeatureFlags {
  const flags: FeatureFlags = { ...FEATURE_FLAG_DEFAULTS };
  // Rows for flags that no longer exist in the code are ignored rather than exposed.
  for (const row of rows) if (isFeatureFlag(row.key)) flags[row.key] = row.enabled;
  // A row stored before they were fixed on (issue #21) does not switch them off.
  for (const flag of FIXED_ON_FLAGS) flags[flag] = true;
  return flags;
}

/** Where each flag's value comes from: a row's source, else the product spec's default. */
export function flagSources(
  rows: readonly { key: string; source: FlagValueSource }[],
): AdminFlags['sources'] {
  const sources = Object.fromEntries(
    FEATURE_FLAG_NAMES.map((name) => [name, 'default' as FlagValueSource]),
  ) as AdminFlags['sources'];
  for (const row of rows) if (isFeatureFlag(row.key)) sources[row.key] = row.source;
  return sources;
}

export function createFlagsService(deps: FlagsServiceDeps) {
  const ttl = deps.cacheTtlMs ?? 30_000;
  const now = deps.now ?? Date.now;
  let cached: { flags: Promise<FeatureFlags>; at: number } | null = null;

  function invalidate() {
    cached = null;
  }

  function getFlags(): Promise<FeatureFlags> {
    if (!cached || now() - cached.at >= ttl) {
      const flags = deps.flags.listAll().then(mergeFlags);
      // A failed read must not stay cached.
      flags.catch(() => {
        if (cached?.flags === flags) cached = null;
      });
      cached = { flags, at: now() };
    }
    return cached.flags;
  }

  return {
    getFlags,
    invalidate,

    /** The effective flags and their sources, read fresh (the administrators' Features panel). */
    async describe(): Promise<AdminFlags> {
      const rows = await deps.flags.listAll();
      return { flags: mergeFlags(rows), sources: flagSources(rows) };
    },

    /**
     * FEATURE_FLAGS sets a flag's starting value only (issue #19): its flags are written with
     * source 'env' unless an administrator has decided the flag, whose stored decision wins at
     * every start (each one kept is logged, so an operator sees why FEATURE_FLAGS did not apply).
     * Env rows for flags it no longer names are dropped so they fall back to the defaults.
     * Returns the flags whose administrator decision was kept.
     */
    async applyEnvOverrides(
      overrides: Partial<FeatureFlags>,
      logger?: { warn(details: object, message: string): void },
    ): Promise<FeatureFlag[]> {
      const entries = Object.entries(overrides) as [FeatureFlag, boolean][];
      const kept = await deps.withTransaction(async ({ flags }) => {
        const decided = new Map(
          (await flags.listAll())
            .filter((row) => row.source === 'admin')
            .map((row) => [row.key, row] as const),
        );
        await flags.deleteEnvRowsExcept(entries.map(([key]) => key));
        await flags.upsertMany(
          entries
            .filter(([key]) => !decided.has(key))
            .map(([key, enabled]) => ({ key, enabled, source: 'env' as const })),
        );
        return entries.flatMap(([key, wanted]) => {
          const stored = decided.get(key);
          return stored ? [{ key, wanted, stored }] : [];
        });
      });
      deps.onChanged?.();
      for (const { key, wanted, stored } of kept) {
        logger?.warn(
          { flag: key, featureFlags: wanted, stored: stored.enabled, decidedAt: stored.updatedAt },
          `FEATURE_FLAGS sets ${key} to ${wanted}, but an administrator set it to ` +
            `${stored.enabled}; the administrator's decision is kept`,
        );
      }
      invalidate();
      return kept.map(({ key }) => key);
    },

    /** Run-time change by an administrator, recorded in the activity log as `flags.updated`. */
    async setFlags(
      changes: UpdateFeatureFlags,
      actorId: string | null,
      context: ChangeContext = {},
    ): Promise<FeatureFlags> {
      const parsed = updateFeatureFlagsSchema.safeParse(changes);
      if (!parsed.success) {
        const items = parsed.error.issues.map((issue) => ({
          instancePath: `/${issue.path.join('/')}`,
          message: issue.message,
          params: 'keys' in issue ? { keys: issue.keys } : undefined,
        }));
        throw new AppError(
          'VALIDATION_ERROR',
          'Unknown or invalid feature flags',
          validationDetails(items),
        );
      }
      const fixed = Object.entries(parsed.data).filter(
        ([key, enabled]) => !enabled && isFixedOnFlag(key),
      );
      if (fixed.length) {
        throw new AppError(
          'VALIDATION_ERROR',
          `${fixed.map(([key]) => key).join(', ')} is fixed on and cannot be switched off.`,
          validationDetails(
            fixed.map(([key]) => ({
              instancePath: `/${key}`,
              message: 'is fixed on: donor privacy rules and the home page do not switch off',
            })),
          ),
        );
      }
      const entries = Object.entries(parsed.data) as [FeatureFlag, boolean][];
      if (entries.length === 0) return getFlags();
      await deps.withTransaction(async ({ flags, activityLog }) => {
        const previous = mergeFlags(await flags.listAll());
        await flags.upsertMany(
          entries.map(([key, enabled]) => ({
            key,
            enabled,
            source: 'admin' as const,
            updatedBy: actorId,
          })),
        );
        await activityLog.record({
          action: 'flags.updated',
          actorId,
          actorRole: context.actorRole ?? null,
          targetType: 'feature_flags',
          targetId: entries.map(([key]) => key).join(','),
          details: {
            changes: Object.fromEntries(entries),
            previous: Object.fromEntries(entries.map(([key]) => [key, previous[key]])),
          },
          requestId: context.requestId ?? null,
        });
      });
      invalidate();
      deps.onChanged?.();
      return getFlags();
    },
  };
}

export type FlagsService = ReturnType<typeof createFlagsService>;

/** The service wired to a database. */
export function createFlagsServiceForDb(
  db: Db,
  options: Pick<FlagsServiceDeps, 'cacheTtlMs' | 'now' | 'onChanged'> = {},
) {
  return createFlagsService({
    ...options,
    flags: createFlagsRepository(db),
    withTransaction: (work) =>
      db.transaction((tx) =>
        work({ flags: createFlagsRepository(tx), activityLog: createActivityLog(tx) }),
      ),
  });
}
