import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cachedRead } from '../../db/read-cache';
import {
  donations,
  hospitals,
  users,
  type DonationRow,
  type NewDonationRow,
  type UserRow,
} from '../../db/schema';
import { CALLER_COLUMNS, callerFactsFrom, type CallerFacts } from '../../plugins/auth';

export function createDonationsRepository(db: Db) {
  return {
    async findUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /**
     * Holds the donor's row until the transaction ends: two donations recorded at once for one
     * donor are checked against each other's interval one after the other.
     */
    async lockDonor(id: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    },

    /** The donor's donations (any, reported or verified) between two instants, oldest first. */
    async donationsBetween(
      donorId: string,
      from: Date,
      to: Date,
    ): Promise<Pick<DonationRow, 'id' | 'donatedAt' | 'place'>[]> {
      return db
        .select({ id: donations.id, donatedAt: donations.donatedAt, place: donations.place })
        .from(donations)
        .where(
          and(
            eq(donations.donorId, donorId),
            gte(donations.donatedAt, from),
            lte(donations.donatedAt, to),
          ),
        )
        .orderBy(asc(donations.donatedAt));
    },

    async insert(row: NewDonationRow): Promise<DonationRow> {
      const [inserted] = await db.insert(donations).values(row).returning();
      if (!inserted) throw new Error('donations insert returned no row');
      return inserted;
    },
  };
}

export type DonationsRepository = ReturnType<typeof createDonationsRepository>;

/** `to_json` of a donations row: snake_case keys, timestamps as ISO text. */
interface DonationJson {
  id: string;
  donor_id: string | null;
  donated_at: string;
  units: number;
  place: string;
  facility_id: string | null;
  request_id: string | null;
  verified: boolean;
  verified_by: string | null;
  certificate_number: string | null;
  walk_in: boolean;
  blood_type: string | null;
  created_at: string;
  is_demo: boolean;
}

function donationFromJson(json: DonationJson): DonationRow {
  return {
    id: json.id,
    donorId: json.donor_id,
    donatedAt: new Date(json.donated_at),
    units: json.units,
    place: json.place,
    facilityId: json.facility_id,
    requestId: json.request_id,
    verified: json.verified,
    verifiedBy: json.verified_by,
    certificateNumber: json.certificate_number,
    walkIn: json.walk_in,
    bloodType: json.blood_type,
    createdAt: new Date(json.created_at),
    isDemo: json.is_demo,
  };
}

/**
 * A donor's donation history page in one prepared statement: whether the account exists (and
 * is not deleted), the page (newest first) and the total. Made once on the database handle
 * (never a transaction).
 */
export function createDonationPages(db: Db) {
  const pageQuery = db
    .select({
      // The caller's row too: a donor's own list authenticates them with it (issue #20).
      caller: CALLER_COLUMNS,
      // Plain SQL names in the subqueries: Drizzle writes a column of a one-table select
      // without its table, which inside a subquery would mean the subquery's own column.
      total: sql<number>`(select count(*)::int from donations c where c.donor_id = users.id)`,
      items: sql<DonationJson[]>`coalesce((
        select json_agg(to_json(d) order by d.donated_at desc, d.created_at desc) from (
          select * from donations p where p.donor_id = users.id
          order by p.donated_at desc, p.created_at desc
          limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
        ) d
      ), '[]'::json)`,
    })
    .from(users)
    .leftJoin(hospitals, eq(hospitals.id, users.hospitalId))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('donations_page_of_user');
  // Served from memory while none of its tables was written (db/read-cache.ts).
  const page = cachedRead(db, 'donations_page_of_user', pageQuery);

  return {
    /**
     * The page with the account's caller facts; undefined when there is no row. A deleted
     * account's row comes back too: the caller check, or the service, refuses it.
     */
    async ofUser(
      id: string,
      pageNumber: number,
      pageSize: number,
    ): Promise<{ caller: CallerFacts; items: DonationRow[]; total: number } | undefined> {
      const [row] = await page({
        id,
        limit: pageSize,
        offset: (pageNumber - 1) * pageSize,
      });
      if (!row) return undefined;
      return {
        caller: callerFactsFrom(row.caller),
        items: row.items.map(donationFromJson),
        total: Number(row.total),
      };
    },
  };
}
