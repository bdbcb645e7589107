import {
  NOTIFICATION_SETTINGS_DEFAULTS,
  notificationSettingsSchema,
  type NotificationSettings,
  type UpdateNotificationSettings,
} from '@bdms/shared';
import { eq, getTableName, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { readThroughCache } from '../db/read-cache';
import { notificationSettings } from '../db/schema';
import { createActivityLog } from './activity-log';
import { oncePerTransaction } from './transaction-memo';

const SETTINGS_ROW_ID = 1;

/**
 * The stored settings over the defaults. A stored value that no longer passes the schema (a
 * limit tightened in a later version) falls back to its default instead of failing every read.
 */
export function mergeNotificationSettings(
  stored: Partial<NotificationSettings> | null | undefined,
): NotificationSettings {
  const merged: NotificationSettings = { ...NOTIFICATION_SETTINGS_DEFAULTS };
  const shape = notificationSettingsSchema.shape;
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (!Object.hasOwn(shape, key)) continue;
    const field = shape[key as keyof typeof shape];
    if (field.safeParse(value).success) {
      (merged as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}

/**
 * Reads the settings with `db`. Inside a transaction pass the transaction: on PGlite a query
 * outside it would wait for it forever.
 */
export function readNotificationSettings(db: Db): Promise<NotificationSettings> {
  // Read once per transaction: the notifier asks for every recipient (issue #20).
  // Between writes to the settings, from memory (db/read-cache.ts).
  return oncePerTransaction(db, 'notification-settings', () =>
    readThroughCache(
      db,
      'notification-settings',
      [getTableName(notificationSettings)],
      async () => {
        const [row] = await db
          .select({ settings: notificationSettings.settings })
          .from(notificationSettings)
          .where(eq(notificationSettings.id, SETTINGS_ROW_ID))
          .limit(1);
        return mergeNotificationSettings(row?.settings);
      },
    ),
  );
}

export interface SettingsChangeContext {
  actorId: string | null;
  actorRole?: string | null;
  requestId?: string | null;
}

/**
 * The administrators' notification settings (`GET|PUT /admin/notifications/settings`). It lives
 * in lib/ because the notifier and, later, matching read it, and features never import each
 * other. Reads are not cached: it is one row, and every server process must see a change at once.
 */
export function createNotificationSettingsService(deps: { db: Db; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    /** The effective settings; pass the caller's transaction as `db` when inside one. */
    get(db: Db = deps.db): Promise<NotificationSettings> {
      return readNotificationSettings(db);
    },

    /** Stores a (validated) subset of the settings and logs `settings.notifications.updated`. */
    async update(
      changes: UpdateNotificationSettings,
      context: SettingsChangeContext,
    ): Promise<NotificationSettings> {
      return deps.db.transaction(async (tx) => {
        // Serialises concurrent updates, so neither overwrites the other's fields.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bdms.notification_settings'))`);
        const previous = await readNotificationSettings(tx);
        const next: NotificationSettings = { ...previous, ...changes };
        const changed = Object.fromEntries(
          Object.entries(changes).filter(
            ([key, value]) => previous[key as keyof NotificationSettings] !== value,
          ),
        );
        if (Object.keys(changed).length === 0) return previous;
        const at = new Date(now());
        await tx
          .insert(notificationSettings)
          .values({
            id: SETTINGS_ROW_ID,
            settings: next,
            updatedAt: at,
            updatedBy: context.actorId,
          })
          .onConflictDoUpdate({
            target: notificationSettings.id,
            set: { settings: next, updatedAt: at, updatedBy: context.actorId },
          });
        await createActivityLog(tx).record({
          action: 'settings.notifications.updated',
          actorId: context.actorId,
          actorRole: context.actorRole ?? null,
          targetType: 'settings',
          targetId: 'notifications',
          details: {
            changes: changed,
            previous: Object.fromEntries(
              Object.keys(changed).map((key) => [key, previous[key as keyof NotificationSettings]]),
            ),
          },
          requestId: context.requestId ?? null,
        });
        return next;
      });
    },
  };
}

export type NotificationSettingsService = ReturnType<typeof createNotificationSettingsService>;
