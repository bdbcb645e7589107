import { and, asc, count, eq, isNotNull, ne, not } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  bloodStock,
  donations,
  facilities,
  pincodes,
  users,
} from '../../db/schema';
import {
  canonicalState,
  type DemoDataset,
  type DemoReference,
  type ReferenceFacility,
  type ReferencePoint,
} from './demo-data.generate';

/** How many rows of each kind, demo or real. */
export interface RecordCounts {
  donors: number;
  requests: number;
  donations: number;
  stock: number;
}

export const NO_RECORDS: RecordCounts = { donors: 0, requests: 0, donations: 0, stock: 0 };

export function totalOf(counts: RecordCounts): number {
  return counts.donors + counts.requests + counts.donations + counts.stock;
}

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table (users). */
const BATCH_ROWS = 500;

async function insertInBatches<T extends Record<string, unknown>>(
  db: Db,
  table: PgTable,
  rows: readonly T[],
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    // Same ids every run: a row already there is left alone, so seeding twice adds nothing.
    const result = await db
      .insert(table)
      .values(batch as never)
      .onConflictDoNothing()
      .returning();
    inserted += (result as unknown[]).length;
  }
  return inserted;
}

export function createDemoDataRepository(db: Db) {
  async function countRows(isDemo: boolean): Promise<RecordCounts> {
    const demo = isDemo ? eq(users.isDemo, true) : eq(users.isDemo, false);
    // Donors and hospital accounts are records; administrators are the operators, not data.
    const [donors] = await db
      .select({ n: count() })
      .from(users)
      .where(and(demo, ne(users.role, 'admin')));
    const [requests] = await db
      .select({ n: count() })
      .from(bloodRequests)
      .where(eq(bloodRequests.isDemo, isDemo));
    const [donationRows] = await db
      .select({ n: count() })
      .from(donations)
      .where(eq(donations.isDemo, isDemo));
    const [stock] = await db
      .select({ n: count() })
      .from(bloodStock)
      .where(eq(bloodStock.isDemo, isDemo));
    return {
      donors: donors?.n ?? 0,
      requests: requests?.n ?? 0,
      donations: donationRows?.n ?? 0,
      stock: stock?.n ?? 0,
    };
  }

  return {
    countDemo: () => countRows(true),
    /** Non-demo donors and hospital accounts, requests, donations and stock lines. */
    countReal: () => countRows(false),

    /** PIN code points and directory centres with a point, in a stable order. */
    async readReference(): Promise<DemoReference> {
      const pointRows = await db
        .select({
          pincode: pincodes.pincode,
          district: pincodes.district,
          state: pincodes.state,
          latitude: pincodes.latitude,
          longitude: pincodes.longitude,
        })
        .from(pincodes)
        .where(not(eq(pincodes.confidence, 'low')))
        .orderBy(asc(pincodes.pincode));
      const points: ReferencePoint[] = pointRows.flatMap((row) => {
        const state = canonicalState(row.state);
        return state ? [{ ...row, state }] : [];
      });
      const facilityRows = await db
        .select({
          id: facilities.id,
          name: facilities.name,
          city: facilities.city,
          district: facilities.district,
          state: facilities.state,
          pincode: facilities.pincode,
          address: facilities.address,
          latitude: facilities.latitude,
          longitude: facilities.longitude,
          components: facilities.components,
          srNo: facilities.srNo,
        })
        .from(facilities)
        .where(and(isNotNull(facilities.latitude), isNotNull(facilities.longitude)))
        .orderBy(asc(facilities.srNo), asc(facilities.id));
      const centres: ReferenceFacility[] = facilityRows.flatMap(({ srNo: _srNo, ...row }) => {
        const state = canonicalState(row.state);
        if (!state || row.latitude === null || row.longitude === null) return [];
        return [{ ...row, state, latitude: row.latitude, longitude: row.longitude }];
      });
      return { points, facilities: centres };
    },

    /** Inserts the dataset in foreign-key order; returns how many rows were new. */
    async insertDataset(dataset: DemoDataset): Promise<RecordCounts> {
      const donors = await insertInBatches(db, users, dataset.users);
      const requests = await insertInBatches(db, bloodRequests, dataset.requests);
      await insertInBatches(db, bloodRequestHistory, dataset.history);
      const donationCount = await insertInBatches(db, donations, dataset.donations);
      await insertInBatches(db, bloodRequestMatches, dataset.matches);
      const stock = await insertInBatches(db, bloodStock, dataset.stock);
      return { donors, requests, donations: donationCount, stock };
    },

    /**
     * Deletes every demo row and nothing else. Donations first (matches point at them), then
     * requests (their history and matches go with them), stock, and last the demo accounts
     * (their notifications, sessions and matches go with them).
     */
    async removeAll(): Promise<RecordCounts> {
      const removedDonations = await db
        .delete(donations)
        .where(eq(donations.isDemo, true))
        .returning({ id: donations.id });
      const removedRequests = await db
        .delete(bloodRequests)
        .where(eq(bloodRequests.isDemo, true))
        .returning({ id: bloodRequests.id });
      const removedStock = await db
        .delete(bloodStock)
        .where(eq(bloodStock.isDemo, true))
        .returning({ id: bloodStock.facilityId });
      // A real request a demo account made or answered keeps its rows (their links become null).
      const removedUsers = await db
        .delete(users)
        .where(eq(users.isDemo, true))
        .returning({ id: users.id });
      return {
        donors: removedUsers.length,
        requests: removedRequests.length,
        donations: removedDonations.length,
        stock: removedStock.length,
      };
    },
  };
}

export type DemoDataRepository = ReturnType<typeof createDemoDataRepository>;
