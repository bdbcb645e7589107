import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  hospitals,
  users,
  type HospitalRow,
  type NewHospitalRow,
  type NewUserRow,
  type UserRow,
} from '../../db/schema';
import { isEmailTaken, isPhoneTaken } from '../../lib/account-uniqueness';

/** A hospital with its sign-in account (one per hospital for now). */
export interface HospitalWithAccount {
  hospital: HospitalRow;
  user: Pick<UserRow, 'id' | 'email' | 'phone'> | null;
}

const accountColumns = { id: users.id, email: users.email, phone: users.phone };
const joinAccount = and(
  eq(users.hospitalId, hospitals.id),
  eq(users.role, 'hospital'),
  isNull(users.deletedAt),
);

export function createHospitalsRepository(db: Db) {
  return {
    isEmailTaken: (email: string) => isEmailTaken(db, email),
    isPhoneTaken: (phone: string) => isPhoneTaken(db, phone),

    async insertHospital(row: NewHospitalRow): Promise<HospitalRow> {
      const [inserted] = await db.insert(hospitals).values(row).returning();
      if (!inserted) throw new Error('hospitals insert returned no row');
      return inserted;
    },

    /** Throws the driver's unique violation for a taken e-mail or phone. */
    async insertUser(row: NewUserRow): Promise<UserRow> {
      const [inserted] = await db
        .insert(users)
        .values({ ...row, email: row.email.toLowerCase() })
        .returning();
      if (!inserted) throw new Error('users insert returned no row');
      return inserted;
    },

    async findById(id: string): Promise<HospitalWithAccount | undefined> {
      const [row] = await db
        .select({ hospital: hospitals, user: accountColumns })
        .from(hospitals)
        .leftJoin(users, joinAccount)
        .where(eq(hospitals.id, id))
        .limit(1);
      return row;
    },

    /** Locks the hospital row until the transaction ends. */
    async lock(id: string): Promise<HospitalRow | undefined> {
      const [row] = await db
        .select()
        .from(hospitals)
        .where(eq(hospitals.id, id))
        .for('update')
        .limit(1);
      return row;
    },

    async listPage(page: number, pageSize: number) {
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select({ hospital: hospitals, user: accountColumns })
            .from(hospitals)
            .leftJoin(users, joinAccount)
            .orderBy(desc(hospitals.createdAt), desc(hospitals.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(hospitals),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async setDisabledAt(id: string, disabledAt: Date | null): Promise<void> {
      await db.update(hospitals).set({ disabledAt }).where(eq(hospitals.id, id));
    },

    /** The live sign-in accounts of a hospital (to sign them out when it is disabled). */
    async listAccountIds(hospitalId: string): Promise<string[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.hospitalId, hospitalId), isNull(users.deletedAt)));
      return rows.map((row) => row.id);
    },
  };
}

export type HospitalsRepository = ReturnType<typeof createHospitalsRepository>;
