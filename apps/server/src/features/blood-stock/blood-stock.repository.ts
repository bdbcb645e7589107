import { boundingBox, type BloodComponent, type BloodType, type StockChange } from '@bdms/shared';
import { and, count, desc, eq, gt, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bloodStock,
  bloodStockUpdates,
  facilities,
  hospitals,
  users,
  type BloodStockRow,
  type FacilityRow,
  type HospitalRow,
} from '../../db/schema';
import { queryAll } from '../../lib/query-all';

export interface AvailabilityRow {
  facility: Pick<
    FacilityRow,
    | 'id'
    | 'name'
    | 'category'
    | 'address'
    | 'city'
    | 'district'
    | 'state'
    | 'pincode'
    | 'phone'
    | 'mobile'
    | 'email'
    | 'website'
    | 'latitude'
    | 'longitude'
    | 'components'
    | 'apheresis'
    | 'serviceTime'
    | 'is24x7'
  >;
  bloodType: BloodType;
  units: number;
  expiringUnits: number | null;
  updatedAt: Date;
}

export interface StateAvailabilityRow {
  state: string;
  bloodType: BloodType;
  units: number;
  centres: number;
}

export interface CentreFreshnessRow {
  facilityId: string;
  name: string;
  state: string;
  district: string | null;
  updatedAt: Date;
}

export function createBloodStockRepository(db: Db) {
  return {
    async findFacility(id: string): Promise<Pick<FacilityRow, 'id' | 'name'> | undefined> {
      const [row] = await db
        .select({ id: facilities.id, name: facilities.name })
        .from(facilities)
        .where(eq(facilities.id, id))
        .limit(1);
      return row;
    },

    /** The organisation a hospital-role account belongs to (null: none, or the account is gone). */
    async findHospitalOfUser(userId: string): Promise<HospitalRow | undefined> {
      const [row] = await db
        .select({ hospital: hospitals })
        .from(users)
        .innerJoin(hospitals, eq(hospitals.id, users.hospitalId))
        .where(and(eq(users.id, userId), eq(users.role, 'hospital'), isNull(users.deletedAt)))
        .limit(1);
      return row?.hospital;
    },

    /** Locks the facility row: stock writes of one centre take turns (the diff stays exact). */
    async lockFacility(id: string): Promise<void> {
      await db.execute(sql`select 1 from ${facilities} where ${facilities.id} = ${id} for update`);
    },

    async stockOf(facilityId: string): Promise<BloodStockRow[]> {
      return db.select().from(bloodStock).where(eq(bloodStock.facilityId, facilityId));
    },

    async upsertLines(
      rows: {
        facilityId: string;
        bloodType: BloodType;
        component: BloodComponent;
        units: number;
        expiringUnits: number | null;
        updatedAt: Date;
        updatedBy: string;
      }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(bloodStock)
        .values(rows)
        .onConflictDoUpdate({
          target: [bloodStock.facilityId, bloodStock.bloodType, bloodStock.component],
          set: {
            units: sql`excluded.units`,
            expiringUnits: sql`excluded.expiring_units`,
            updatedAt: sql`excluded.updated_at`,
            updatedBy: sql`excluded.updated_by`,
            // The centre's own figure replaces a demo one (mockData) and is no longer demo.
            isDemo: false,
          },
        });
    },

    /** Every line of the centre confirmed as of `at` ("nothing changed", or the whole screen seen). */
    async touchAll(facilityId: string, at: Date, userId: string): Promise<number> {
      const rows = await db
        .update(bloodStock)
        .set({ updatedAt: at, updatedBy: userId, isDemo: false })
        .where(eq(bloodStock.facilityId, facilityId))
        .returning({ facilityId: bloodStock.facilityId });
      return rows.length;
    },

    async insertUpdate(entry: {
      facilityId: string;
      kind: 'updated' | 'confirmed';
      at: Date;
      userId: string;
      changes: StockChange[];
    }): Promise<void> {
      await db.insert(bloodStockUpdates).values(entry);
    },

    async history(facilityId: string, page: number, pageSize: number) {
      const where = eq(bloodStockUpdates.facilityId, facilityId);
      const [items, [totals]] = await queryAll(db, [
        () =>
          db
            .select({
              id: bloodStockUpdates.id,
              kind: bloodStockUpdates.kind,
              at: bloodStockUpdates.at,
              userId: bloodStockUpdates.userId,
              name: users.fullName,
              changes: bloodStockUpdates.changes,
            })
            .from(bloodStockUpdates)
            .leftJoin(users, eq(users.id, bloodStockUpdates.userId))
            .where(where)
            .orderBy(desc(bloodStockUpdates.at), desc(bloodStockUpdates.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(bloodStockUpdates).where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    /**
     * Fresh, non-zero lines of `component` in `types` whose centre lies in the bounding box of the
     * circle (the caller cuts to the circle). Served by the partial index on
     * (component, blood_type, updated_at) where units > 0, joined to facilities by key.
     */
    async available(options: {
      types: BloodType[];
      component: BloodComponent;
      freshSince: Date;
      latitude: number;
      longitude: number;
      radiusKm: number;
    }): Promise<AvailabilityRow[]> {
      const box = boundingBox(
        { latitude: options.latitude, longitude: options.longitude },
        options.radiusKm,
      );
      const rows = await db
        .select({
          facility: {
            id: facilities.id,
            name: facilities.name,
            category: facilities.category,
            address: facilities.address,
            city: facilities.city,
            district: facilities.district,
            state: facilities.state,
            pincode: facilities.pincode,
            phone: facilities.phone,
            mobile: facilities.mobile,
            email: facilities.email,
            website: facilities.website,
            latitude: facilities.latitude,
            longitude: facilities.longitude,
            components: facilities.components,
            apheresis: facilities.apheresis,
            serviceTime: facilities.serviceTime,
            is24x7: facilities.is24x7,
          },
          bloodType: bloodStock.bloodType,
          units: bloodStock.units,
          expiringUnits: bloodStock.expiringUnits,
          updatedAt: bloodStock.updatedAt,
        })
        .from(bloodStock)
        .innerJoin(facilities, eq(facilities.id, bloodStock.facilityId))
        .where(
          and(
            eq(bloodStock.component, options.component),
            inArray(bloodStock.bloodType, options.types),
            gt(bloodStock.units, 0),
            gte(bloodStock.updatedAt, options.freshSince),
            gte(facilities.latitude, box.minLat),
            lte(facilities.latitude, box.maxLat),
            gte(facilities.longitude, box.minLng),
            lte(facilities.longitude, box.maxLng),
          ),
        );
      return rows;
    },

    /** Fresh units and centres holding them, per state and group, of one component. */
    async availabilityByState(
      component: BloodComponent,
      freshSince: Date,
    ): Promise<StateAvailabilityRow[]> {
      const rows = await db
        .select({
          state: facilities.state,
          bloodType: bloodStock.bloodType,
          units: sql<number>`sum(${bloodStock.units})::int`,
          centres: sql<number>`count(distinct ${bloodStock.facilityId})::int`,
        })
        .from(bloodStock)
        .innerJoin(facilities, eq(facilities.id, bloodStock.facilityId))
        .where(
          and(
            eq(bloodStock.component, component),
            gt(bloodStock.units, 0),
            gte(bloodStock.updatedAt, freshSince),
          ),
        )
        .groupBy(facilities.state, bloodStock.bloodType);
      return rows.map((row) => ({
        ...row,
        units: Number(row.units),
        centres: Number(row.centres),
      }));
    },

    /** Each centre that has published stock, with its latest confirmation, oldest first. */
    async centresByFreshness(): Promise<CentreFreshnessRow[]> {
      const latest = sql<Date>`max(${bloodStock.updatedAt})`;
      const rows = await db
        .select({
          facilityId: bloodStock.facilityId,
          name: facilities.name,
          state: facilities.state,
          district: facilities.district,
          updatedAt: latest,
        })
        .from(bloodStock)
        .innerJoin(facilities, eq(facilities.id, bloodStock.facilityId))
        .groupBy(bloodStock.facilityId, facilities.name, facilities.state, facilities.district)
        .orderBy(latest, bloodStock.facilityId);
      return rows.map((row) => ({ ...row, updatedAt: new Date(row.updatedAt) }));
    },
  };
}

export type BloodStockRepository = ReturnType<typeof createBloodStockRepository>;
