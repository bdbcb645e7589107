import { eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { notifications, users } from '../../../db/schema';

function selectNotifications(db: Db, where: SQL) {
  return db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      link: notifications.link,
      userId: users.id,
      email: users.email,
      phone: users.phone,
      phoneVerifiedAt: users.phoneVerifiedAt,
      fullName: users.fullName,
      language: users.language,
      deletedAt: users.deletedAt,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(where);
}

export type StoredNotification = Awaited<ReturnType<typeof selectNotifications>>[number];

/**
 * A stored notification with what its recipient's channels need (null when gone, or for a
 * delivery without one: a guest requester's message).
 */
export async function loadNotification(
  db: Db,
  id: string | null,
): Promise<StoredNotification | null> {
  if (!id) return null;
  const [row] = await selectNotifications(db, eq(notifications.id, id)).limit(1);
  return row ?? null;
}

/** Several of them in one statement, by id (a gone one is simply absent). */
export async function loadNotifications(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, StoredNotification>> {
  if (ids.length === 0) return new Map();
  const rows = await selectNotifications(db, inArray(notifications.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row]));
}
