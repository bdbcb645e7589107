import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contactMessages } from '../../db/schema';

export interface NewContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
  ipHash: string;
  createdAt: Date;
}

export function createContactRepository(db: Db) {
  return {
    async insert(message: NewContactMessage): Promise<{ id: string }> {
      const [row] = await db
        .insert(contactMessages)
        .values(message)
        .returning({ id: contactMessages.id });
      if (!row) throw new Error('contact_messages insert returned no row');
      return row;
    },

    /**
     * The privacy policy keeps contact messages "up to 1 year after we have dealt with them":
     * a message counts as dealt with when it is marked handled, or at the latest when it arrived
     * (it is e-mailed to the support address at once).
     */
    async deleteDealtWithBefore(cutoff: Date): Promise<number> {
      const rows = await db
        .delete(contactMessages)
        .where(
          lt(sql`coalesce(${contactMessages.handledAt}, ${contactMessages.createdAt})`, cutoff),
        )
        .returning({ id: contactMessages.id });
      return rows.length;
    },
  };
}
