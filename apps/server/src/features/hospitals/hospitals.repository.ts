import { and, count, desc, eq, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  facilities,
  hospitals,
  users,
  type FacilityRow,
  type HospitalRow,
  type NewHospitalRow,
  type NewUserRow,
  type UserRow,
} from '../../db/schema';
import { isEmailTaken, isPhoneTaken } from '../../lib/account-uniqueness';

/** A hospital with its sign-in account (one per hospital for now) and its directory entry. */
export interface HospitalWithAccount {
  hospital: HospitalRow;
  user: Pick<UserRow, 'id' | 'email' | 'phone' | 'phoneVerifiedAt'> | null;
  facility?: FacilityRow | null;
  /** Other verified hospitals linked to the same directory entry. */
  claimedBy?: { id: string; name: string }[];
}

/** `GET /admin/hospitals` filters. */
export interface HospitalFilter {
  status?: HospitalRow['verificationStatus'] | undefined;
  registeredVia?: HospitalRow['registeredVia'] | undefined;
}

const accountColumns = {
  id: users.id,
  email: users.email,
  phone: users.phone,
  phoneVerifiedAt: users.phoneVerifiedAt,
};

function filterCondition(filter: HospitalFilter): SQL | undefined {
  return and(
    filter.status ? eq(hospitals.verificationStatus, filter.status) : undefined,
    filter.registeredVia ? eq(hospitals.registeredVia, filter.registeredVia) : undefined,
  );
}
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
        .select({ hospital: hospitals, user: accountColumns, facility: facilities })
        .from(hospitals)
        .leftJoin(users, joinAccount)
        .leftJoin(facilities, eq(facilities.id, hospitals.facilityId))
        .where(eq(hospitals.id, id))
        .limit(1);
      if (!row) return undefined;
      const claims = await this.verifiedClaims([row.hospital]);
      return { ...row, claimedBy: claims.get(row.hospital.id) ?? [] };
    },

    /**
     * For each hospital with a directory entry: the other verified hospitals linked to the same
     * entry (an entry "already claimed").
     */
    async verifiedClaims(
      rows: readonly Pick<HospitalRow, 'id' | 'facilityId'>[],
    ): Promise<Map<string, { id: string; name: string }[]>> {
      const facilityIds = [
        ...new Set(rows.map((row) => row.facilityId).filter((id) => id !== null)),
      ];
      const result = new Map<string, { id: string; name: string }[]>();
      if (facilityIds.length === 0) return result;
      const holders = await db
        .select({ id: hospitals.id, name: hospitals.name, facilityId: hospitals.facilityId })
        .from(hospitals)
        .where(
          and(
            inArray(hospitals.facilityId, facilityIds),
            eq(hospitals.verificationStatus, 'verified'),
          ),
        );
      for (const row of rows) {
        result.set(
          row.id,
          holders
            .filter((holder) => holder.facilityId === row.facilityId && holder.id !== row.id)
            .map(({ id, name }) => ({ id, name })),
        );
      }
      return result;
    },

    /** Is `facilityId` held by a verified hospital other than `exceptId`? */
    async isClaimed(facilityId: string, exceptId?: string): Promise<boolean> {
      const [row] = await db
        .select({ id: hospitals.id })
        .from(hospitals)
        .where(
          and(
            eq(hospitals.facilityId, facilityId),
            eq(hospitals.verificationStatus, 'verified'),
            exceptId ? ne(hospitals.id, exceptId) : undefined,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    languageOf(userId: string) {
      return db
        .select({ language: users.language })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
    },

    async findFacility(id: string): Promise<FacilityRow | undefined> {
      const [row] = await db.select().from(facilities).where(eq(facilities.id, id)).limit(1);
      return row;
    },

    /** Sets verification columns (verify / reject). */
    async setVerification(
      id: string,
      values: Pick<
        NewHospitalRow,
        'verificationStatus' | 'verifiedAt' | 'verifiedBy' | 'rejectionReason'
      >,
    ): Promise<void> {
      await db.update(hospitals).set(values).where(eq(hospitals.id, id));
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

    async listPage(
      page: number,
      pageSize: number,
      filter: HospitalFilter = {},
    ): Promise<{ items: HospitalWithAccount[]; total: number }> {
      const where = filterCondition(filter);
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select({ hospital: hospitals, user: accountColumns, facility: facilities })
            .from(hospitals)
            .leftJoin(users, joinAccount)
            .leftJoin(facilities, eq(facilities.id, hospitals.facilityId))
            .where(where)
            .orderBy(desc(hospitals.createdAt), desc(hospitals.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(hospitals).where(where),
      ]);
      const claims = await this.verifiedClaims(items.map((item) => item.hospital));
      return {
        items: items.map((item) => ({ ...item, claimedBy: claims.get(item.hospital.id) ?? [] })),
        total: Number(totals?.total ?? 0),
      };
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
