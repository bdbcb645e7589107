import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  donations,
  users,
  type DonationRow,
  type NewDonationRow,
  type UserRow,
} from '../../db/schema';

export function createDonationsRepository(db: Db) {
  return {
    async findUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async listByDonor(
      donorId: string,
      page: number,
      pageSize: number,
    ): Promise<{ items: DonationRow[]; total: number }> {
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(donations)
            .where(eq(donations.donorId, donorId))
            .orderBy(desc(donations.donatedAt), desc(donations.createdAt))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(donations).where(eq(donations.donorId, donorId)),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async insert(row: NewDonationRow): Promise<DonationRow> {
      const [inserted] = await db.insert(donations).values(row).returning();
      if (!inserted) throw new Error('donations insert returned no row');
      return inserted;
    },
  };
}

export type DonationsRepository = ReturnType<typeof createDonationsRepository>;
