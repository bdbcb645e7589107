import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users, type NewUserRow, type UserRow } from '../../db/schema';

export function createAuthRepository(db: Db) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(eq(users.email, email.toLowerCase()))
        .limit(1);
      return row;
    },

    async hasActiveAdmin(): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
        .limit(1);
      return row !== undefined;
    },

    /** Inserts unless the e-mail is taken; returns the new row or undefined. */
    async insertIfEmailFree(user: NewUserRow): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values({ ...user, email: user.email.toLowerCase() })
        .onConflictDoNothing({ target: users.email })
        .returning();
      return row;
    },

    /**
     * Serialises start-up work across server processes sharing one database; the lock is
     * released when the surrounding transaction ends.
     */
    async lockForStartup(name: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
