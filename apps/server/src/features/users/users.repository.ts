import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema';

export type ProfileChanges = Partial<
  Pick<
    NewUserRow,
    'fullName' | 'phone' | 'city' | 'state' | 'pincode' | 'bloodType' | 'available' | 'language'
  >
>;

export function createUsersRepository(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async findIdByPhone(phone: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.phone, phone))
        .limit(1);
      return row?.id;
    },

    /** Throws the driver's unique violation when the phone belongs to someone else. */
    async updateProfile(id: string, changes: ProfileChanges): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
      return row;
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
