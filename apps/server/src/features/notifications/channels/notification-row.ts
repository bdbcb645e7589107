import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { notifications, users } from '../../../db/schema';

/**
 * A stored notification with what its recipient's channels need (null when gone, or for a
 * delivery without one: a guest requester's message).
 */
export async function loadNotification(db: Db, id: string | null) {
  if (!id) return null;
  const [row] = await db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      link: notifications.link,
      userId: users.id,
      email: users.email,
      phone: users.phone,
      fullName: users.fullName,
      language: users.language,
      deletedAt: users.deletedAt,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(eq(notifications.id, id))
    .limit(1);
  return row ?? null;
}
