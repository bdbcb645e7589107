import type {
  BloodRequestStatus,
  BloodType,
  ListBloodRequestsQuery,
  QuestionnaireAnswers,
} from '@bdms/shared';
import { OPEN_BLOOD_REQUEST_STATUSES } from '@bdms/shared';
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { executeRows, type Db } from '../../db/client';
import { readThroughCache } from '../../db/read-cache';
import { liveAdminIds } from '../../lib/admins';
import {
  hospitalNameKey,
  hospitalOfUser,
  hospitalScope,
  type HospitalInfo,
} from '../../lib/blood-request-links';
import {
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  facilities,
  hospitals,
  pincodes,
  users,
  type BloodRequestHistoryRow,
  type BloodRequestMatchRow,
  type BloodRequestRow,
  type NewBloodRequestRow,
} from '../../db/schema';

export interface MatchCounts {
  notified: number;
  accepted: number;
  declined: number;
}

/** Whose requests a list shows (API.md "Blood requests", GET list). */
export type ListScope =
  | { kind: 'all' }
  | { kind: 'hospital'; userId: string; hospital: HospitalInfo | null }
  | { kind: 'donor'; userId: string };

export { hospitalNameKey, type HospitalInfo };

/** One donor the candidate query found (see `findCandidates`). */
export interface CandidateRow {
  id: string;
  role: string;
  status: string;
  bloodType: string | null;
  gender: string | null;
  latitude: number;
  longitude: number;
  available: boolean;
  availabilityConfirmedAt: Date | null;
  availableUntil: string | null;
  lastDonationAt: Date | null;
  /** YYYY-MM-DD. */
  dateOfBirth: string | null;
  /** The answers, decided again by the ranking at matching time (never the stored verdict). */
  questionnaire: { answers: QuestionnaireAnswers; onHold: boolean } | null;
  alertsLast7d: number;
  alreadyMatched: boolean;
  /** Past alerts and acceptances (`CandidateQuery.responses`); null when not asked for. */
  responses: { asked: number; accepted: number } | null;
}

export interface CandidateQuery {
  requestId: string;
  latitude: number;
  longitude: number;
  radiusKm: number;
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number };
  donorTypes: BloodType[];
  /** Donors whose last donation is after this are too recent for anyone (the shortest interval). */
  lastDonationBy: Date;
  /** Start of the fairness window (7 days ago). */
  alertsSince: Date;
  /**
   * The `likelyToAnswer` ranking (`advancedMatching`): read each candidate's past alerts for
   * other requests notified since `since` (walk-in links, round 0, are no alerts), counting only
   * those answered or notified before `answeredBy` (time enough to answer), and how many of them
   * they accepted. Read for the rows of the page only, like the alert count.
   */
  responses?: { since: Date; answeredBy: Date };
}

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/**
 * Where a page of candidates starts: after this row in the ranking's order (exact type first,
 * then nearest, then id). `limit` rows at most; none means every candidate.
 */
export interface CandidatePage {
  limit?: number;
  after?: { otherType: boolean; distanceKm: number; id: string };
}

/**
 * The candidate query of one matching round (see `findCandidates`); exported for EXPLAIN.
 * Rows come in the ranking's order: donors of the exact type (`donorTypes[0]`, see
 * `compatibleDonorTypes`) first, then the nearest, ties by id. The cheap part (the box, the
 * filters, the distance) runs for every donor in the circle; the date of birth, the
 * questionnaire and the two look-ups in blood_request_matches only for the rows of the page.
 */
export function candidateSql(query: CandidateQuery, page: CandidatePage = {}): SQL {
  const types = sql.join(
    query.donorTypes.map((type) => sql`${type}`),
    sql`, `,
  );
  const exactType = query.donorTypes[0] ?? null;
  const { box } = query;
  // Demo donors (the mockData flag) are never candidates: not even for demo requests.
  const common = sql`u.role = 'donor' and u.status = 'approved' and u.deleted_at is null and not u.is_demo
    and u.available and u.blood_type in (${types})
    and (u.last_donation_at is null or u.last_donation_at <= ${query.lastDonationBy.toISOString()}::timestamptz)`;
  const distance = (lat: SQL, lng: SQL) => sql`(2 * 6371.0088 * asin(least(1, sqrt(
      power(sin(radians(${lat} - ${query.latitude}::float8) / 2), 2)
      + cos(radians(${query.latitude}::float8)) * cos(radians(${lat}))
        * power(sin(radians(${lng} - ${query.longitude}::float8) / 2), 2)))))`;
  // Selected from the box's index alone (users_donor_geo_idx covers them): no heap visit. The
  // date of birth and the answers are read for the rows of the page only (below), so the
  // ranking decides eligibility at matching time without a heap visit per donor in the circle.
  const columns = sql`u.id, u.role, u.status, u.blood_type, u.gender, u.available,
    u.availability_confirmed_at, u.available_until::text as available_until, u.last_donation_at,
    u.blood_type is distinct from ${exactType}::text as other_type`;
  const order = sql`n.other_type, n.distance_km, n.id`;
  const where = [sql`n.distance_km <= ${query.radiusKm}::float8`];
  if (page.after) {
    where.push(sql`(n.other_type, n.distance_km, n.id) > (${page.after.otherType}::boolean,
      ${page.after.distanceKm}::float8, ${page.after.id}::uuid)`);
  }
  const limit = page.limit === undefined ? sql`` : sql`limit ${page.limit}`;
  // Served by blood_request_matches_donor_notified_idx (donor_id, notified_at), per page row.
  const responses = query.responses
    ? {
        columns: sql`r.asked as responses_asked, r.accepted as responses_accepted`,
        join: sql`left join lateral (
          select count(*)::int as asked,
            count(*) filter (where m.response = 'accepted')::int as accepted
          from blood_request_matches m
          where m.donor_id = n.id and m.request_id <> ${query.requestId}::uuid and m.round > 0
            and m.notified_at >= ${query.responses.since.toISOString()}::timestamptz
            and (m.response is not null
              or m.notified_at < ${query.responses.answeredBy.toISOString()}::timestamptz)
        ) r on true`,
      }
    : {
        columns: sql`null::int as responses_asked, null::int as responses_accepted`,
        join: sql``,
      };
  return sql`with near as (
      select ${columns}, u.latitude as lat, u.longitude as lng,
        ${distance(sql`u.latitude`, sql`u.longitude`)} as distance_km
      from users u
      where ${common}
        and u.latitude between ${box.minLat}::float8 and ${box.maxLat}::float8
        and u.longitude between ${box.minLng}::float8 and ${box.maxLng}::float8
      union all
      select ${columns}, p.latitude as lat, p.longitude as lng,
        ${distance(sql`p.latitude`, sql`p.longitude`)} as distance_km
      from pincodes p
      join users u on u.pincode = p.pincode and u.latitude is null
      where ${common}
        and p.latitude between ${box.minLat}::float8 and ${box.maxLat}::float8
        and p.longitude between ${box.minLng}::float8 and ${box.maxLng}::float8
    ), ranked as (
      select n.* from near n
      where ${sql.join(where, sql` and `)}
      order by ${order}
      ${limit}
    )
    select n.*,
      (select b.date_of_birth::text from users b where b.id = n.id) as date_of_birth,
      q.user_id is not null as has_questionnaire, q.answers,
      (q.review_decision is not distinct from 'rejected'
        or q.review_required_reason is not null) as on_hold,
      (select count(*) from blood_request_matches m
        where m.donor_id = n.id and m.notified_at >= ${query.alertsSince.toISOString()}::timestamptz
          and m.round > 0) as alerts,
      exists (select 1 from blood_request_matches m
              where m.donor_id = n.id and m.request_id = ${query.requestId}::uuid) as already_matched,
      ${responses.columns}
    from ranked n
    left join questionnaires q on q.user_id = n.id
    ${responses.join}
    order by ${order}`;
}

/** The first page of `findCandidates` with `enough`: five times the default 20 donors told. */
export const FIRST_CANDIDATE_PAGE = 100;

function toCandidate(row: Record<string, unknown>): CandidateRow {
  return {
    id: String(row.id),
    role: String(row.role),
    status: String(row.status),
    bloodType: (row.blood_type as string | null) ?? null,
    gender: (row.gender as string | null) ?? null,
    latitude: Number(row.lat),
    longitude: Number(row.lng),
    available: Boolean(row.available),
    availabilityConfirmedAt: toDate(row.availability_confirmed_at),
    availableUntil: (row.available_until as string | null) ?? null,
    lastDonationAt: toDate(row.last_donation_at),
    dateOfBirth: (row.date_of_birth as string | null) ?? null,
    questionnaire: row.has_questionnaire
      ? {
          answers: (typeof row.answers === 'string'
            ? JSON.parse(row.answers)
            : row.answers) as QuestionnaireAnswers,
          onHold: Boolean(row.on_hold),
        }
      : null,
    alertsLast7d: Number(row.alerts),
    responses:
      row.responses_asked === null || row.responses_asked === undefined
        ? null
        : { asked: Number(row.responses_asked), accepted: Number(row.responses_accepted) },
    alreadyMatched: Boolean(row.already_matched),
  };
}

export function createBloodRequestsRepository(db: Db) {
  function scopeCondition(scope: ListScope): SQL | undefined {
    if (scope.kind === 'all') return undefined;
    if (scope.kind === 'hospital') return hospitalScope(scope.userId, scope.hospital);
    return or(
      eq(bloodRequests.createdBy, scope.userId),
      sql`exists (select 1 from ${bloodRequestMatches} m where m.request_id = ${bloodRequests.id} and m.donor_id = ${scope.userId})`,
    );
  }

  return {
    async findById(id: string, forUpdate = false): Promise<BloodRequestRow | undefined> {
      const query = db.select().from(bloodRequests).where(eq(bloodRequests.id, id)).limit(1);
      const [row] = forUpdate ? await query.for('update') : await query;
      return row;
    },

    async findByTrackingCode(code: string): Promise<BloodRequestRow | undefined> {
      const [row] = await db
        .select()
        .from(bloodRequests)
        .where(eq(bloodRequests.trackingCode, code))
        .limit(1);
      return row;
    },

    async update(id: string, set: Partial<NewBloodRequestRow>): Promise<BloodRequestRow> {
      const [row] = await db
        .update(bloodRequests)
        .set(set)
        .where(eq(bloodRequests.id, id))
        .returning();
      if (!row) throw new Error('blood_requests update returned no row');
      return row;
    },

    async historyFor(ids: string[]): Promise<BloodRequestHistoryRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(bloodRequestHistory)
        .where(inArray(bloodRequestHistory.requestId, ids))
        .orderBy(asc(bloodRequestHistory.at), asc(bloodRequestHistory.id));
    },

    async matchCountsFor(ids: string[]): Promise<Map<string, MatchCounts>> {
      const result = new Map<string, MatchCounts>();
      if (ids.length === 0) return result;
      const rows = await db
        .select({
          requestId: bloodRequestMatches.requestId,
          notified: sql<string>`count(*) filter (where ${bloodRequestMatches.round} > 0)`,
          accepted: sql<string>`count(*) filter (where ${bloodRequestMatches.response} = 'accepted')`,
          declined: sql<string>`count(*) filter (where ${bloodRequestMatches.response} = 'declined')`,
        })
        .from(bloodRequestMatches)
        .where(inArray(bloodRequestMatches.requestId, ids))
        .groupBy(bloodRequestMatches.requestId);
      for (const row of rows) {
        result.set(row.requestId, {
          notified: Number(row.notified),
          accepted: Number(row.accepted),
          declined: Number(row.declined),
        });
      }
      return result;
    },

    async findFacility(id: string) {
      const [row] = await db
        .select({
          id: facilities.id,
          name: facilities.name,
          latitude: facilities.latitude,
          longitude: facilities.longitude,
        })
        .from(facilities)
        .where(eq(facilities.id, id))
        .limit(1);
      return row;
    },

    /** A PIN code's centroid: reference data, read from memory after the first time. */
    findPincode(pincode: string) {
      return readThroughCache(db, `pincode\u0000${pincode}`, ['pincodes'], async () => {
        const [row] = await db
          .select()
          .from(pincodes)
          .where(eq(pincodes.pincode, pincode))
          .limit(1);
        return row;
      });
    },

    /** The hospital a hospital account signs in for (null for other users or a missing link). */
    hospitalOfUser: (userId: string) => hospitalOfUser(db, userId),

    /**
     * The hospital that speaks for this facility, to link a request that names it: the oldest
     * verified, enabled one (issue #32 item 14: a registration still pending or rejected, a
     * squatter first in line, captures nothing).
     */
    async hospitalForFacility(facilityId: string): Promise<string | null> {
      const [row] = await db
        .select({ id: hospitals.id })
        .from(hospitals)
        .where(
          and(
            eq(hospitals.facilityId, facilityId),
            eq(hospitals.verificationStatus, 'verified'),
            isNull(hospitals.disabledAt),
          ),
        )
        .orderBy(asc(hospitals.createdAt), asc(hospitals.id))
        .limit(1);
      return row?.id ?? null;
    },

    /**
     * The sign-in users of a hospital (to tell them about requests that name it): none while
     * the hospital is on hold (not verified, or disabled), and no suspended or erased account
     * (issue #32 item 14).
     */
    async hospitalUserIds(hospitalId: string): Promise<string[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(hospitals, eq(hospitals.id, users.hospitalId))
        .where(
          and(
            eq(users.hospitalId, hospitalId),
            eq(users.role, 'hospital'),
            isNull(users.deletedAt),
            ne(users.status, 'suspended'),
            eq(hospitals.verificationStatus, 'verified'),
            isNull(hospitals.disabledAt),
          ),
        );
      return rows.map((row) => row.id);
    },

    /**
     * Points the open requests naming `facilityId` (not those a hospital made for itself) at
     * `hospitalId` where they point elsewhere; returns the requests moved.
     */
    async repointFacilityRequests(
      facilityId: string,
      hospitalId: string | null,
    ): Promise<BloodRequestRow[]> {
      return db
        .update(bloodRequests)
        .set({ hospitalId })
        .where(
          and(
            eq(bloodRequests.facilityId, facilityId),
            inArray(bloodRequests.status, [...OPEN_BLOOD_REQUEST_STATUSES, 'unconfirmed']),
            ne(bloodRequests.createdByRole, 'hospital'),
            hospitalId === null
              ? isNotNull(bloodRequests.hospitalId)
              : or(isNull(bloodRequests.hospitalId), ne(bloodRequests.hospitalId, hospitalId)),
          ),
        )
        .returning();
    },

    /** The live accounts that verified the request (its history), with their roles. */
    async verifiersOf(requestId: string): Promise<{ id: string; role: string }[]> {
      return db
        .selectDistinct({ id: users.id, role: users.role })
        .from(bloodRequestHistory)
        .innerJoin(users, eq(users.id, bloodRequestHistory.by))
        .where(
          and(
            eq(bloodRequestHistory.requestId, requestId),
            eq(bloodRequestHistory.status, 'verified'),
            isNull(users.deletedAt),
          ),
        );
    },

    adminIds(): Promise<string[]> {
      return liveAdminIds(db);
    },

    /** Whether `userId`'s scope (hospital) covers the request. */
    async isInHospitalScope(
      requestId: string,
      userId: string,
      hospital: HospitalInfo | null,
    ): Promise<boolean> {
      const [row] = await db
        .select({ id: bloodRequests.id })
        .from(bloodRequests)
        .where(and(eq(bloodRequests.id, requestId), hospitalScope(userId, hospital)))
        .limit(1);
      return row !== undefined;
    },

    async list(
      scope: ListScope,
      query: ListBloodRequestsQuery,
    ): Promise<{ items: BloodRequestRow[]; total: number }> {
      const conditions: SQL[] = [];
      const scoped = scopeCondition(scope);
      if (scoped) conditions.push(scoped);
      if (query.status) conditions.push(eq(bloodRequests.status, query.status));
      // An unconfirmed request (its phone code not back yet, issue #16) is in no list but
      // the one of the account that made it.
      conditions.push(
        scope.kind === 'donor'
          ? sql`(${bloodRequests.status} <> 'unconfirmed' or ${bloodRequests.createdBy} = ${scope.userId})`
          : sql`${bloodRequests.status} <> 'unconfirmed'`,
      );
      if (query.bloodType) conditions.push(eq(bloodRequests.bloodType, query.bloodType));
      if (query.urgency) conditions.push(eq(bloodRequests.urgency, query.urgency));
      if (query.city) {
        conditions.push(
          ilike(
            bloodRequests.city,
            query.city.replace(/[\\%_]/g, (c) => `\\${c}`),
          ),
        );
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const [items, [totals]] = await Promise.all([
        db
          .select()
          .from(bloodRequests)
          .where(where)
          .orderBy(desc(bloodRequests.createdAt), desc(bloodRequests.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(bloodRequests).where(where),
      ]);
      return { items, total: Number(totals?.total ?? 0) };
    },

    async findMatch(requestId: string, donorId: string): Promise<BloodRequestMatchRow | undefined> {
      const [row] = await db
        .select()
        .from(bloodRequestMatches)
        .where(
          and(
            eq(bloodRequestMatches.requestId, requestId),
            eq(bloodRequestMatches.donorId, donorId),
          ),
        )
        .limit(1);
      return row;
    },

    async matchesOfDonor(donorId: string, requestIds: string[]): Promise<BloodRequestMatchRow[]> {
      if (requestIds.length === 0) return [];
      return db
        .select()
        .from(bloodRequestMatches)
        .where(
          and(
            eq(bloodRequestMatches.donorId, donorId),
            inArray(bloodRequestMatches.requestId, requestIds),
          ),
        );
    },

    /**
     * Issue #22: the fairness cap (alerts per donor in 7 days) must hold when two matching rounds
     * run at once (two requests verified together, a widening round beside a verification). Takes
     * a transaction-scoped advisory lock per donor, in one fixed order so two rounds never wait on
     * each other crosswise, then counts each donor's alerts afresh: a round that waited sees the
     * alerts the other committed. Returns the count per donor (absent = none).
     */
    async lockAlertCounts(donorIds: readonly string[], since: Date): Promise<Map<string, number>> {
      if (donorIds.length === 0) return new Map();
      const sorted = [...donorIds].sort();
      const ids = sql.join(
        sorted.map((id) => sql`${id}`),
        sql`, `,
      );
      await executeRows(
        db,
        sql`select pg_advisory_xact_lock(hashtextextended('bdms:donor-alerts:' || s.id, 0))
            from (select unnest(array[${ids}]::text[]) as id order by 1) s`,
      );
      // Compared as uuid, so the (donor_id, notified_at) index serves the count.
      const rows = await executeRows<{ donor_id: string; alerts: string | number }>(
        db,
        sql`select m.donor_id::text as donor_id, count(*) as alerts
            from blood_request_matches m
            where m.donor_id in (${sql.join(
              sorted.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})
              and m.notified_at >= ${since.toISOString()}::timestamptz and m.round > 0
            group by m.donor_id`,
      );
      return new Map(rows.map((row) => [row.donor_id, Number(row.alerts)]));
    },

    /** Inserts match rows; returns the donors actually inserted (not told before). */
    async insertMatches(rows: (typeof bloodRequestMatches.$inferInsert)[]): Promise<Set<string>> {
      if (rows.length === 0) return new Set();
      // A concurrent round may have told a donor already: the unique index keeps one row.
      const inserted = await db
        .insert(bloodRequestMatches)
        .values(rows)
        .onConflictDoNothing()
        .returning({ donorId: bloodRequestMatches.donorId });
      return new Set(inserted.map((row) => row.donorId));
    },

    /** Accepted donors with their contact, for the hospital and administrators. */
    async acceptedDonors(requestId: string) {
      return db
        .select({
          donorId: users.id,
          name: users.fullName,
          phone: users.phone,
          bloodType: users.bloodType,
          distanceKm: bloodRequestMatches.distanceKm,
          respondedAt: bloodRequestMatches.respondedAt,
          donatedAt: bloodRequestMatches.donatedAt,
          deletedAt: users.deletedAt,
        })
        .from(bloodRequestMatches)
        .innerJoin(users, eq(users.id, bloodRequestMatches.donorId))
        .where(
          and(
            eq(bloodRequestMatches.requestId, requestId),
            eq(bloodRequestMatches.response, 'accepted'),
          ),
        )
        .orderBy(asc(bloodRequestMatches.respondedAt));
    },

    /** Donors who accepted and have not donated yet: they may be on their way. */
    async acceptedNotDonated(requestId: string): Promise<string[]> {
      const rows = await db
        .select({ donorId: bloodRequestMatches.donorId })
        .from(bloodRequestMatches)
        .where(
          and(
            eq(bloodRequestMatches.requestId, requestId),
            eq(bloodRequestMatches.response, 'accepted'),
            isNull(bloodRequestMatches.donatedAt),
          ),
        );
      return rows.map((row) => row.donorId);
    },

    /** First names of accepted donors who have not donated yet (tracking: "on their way"). */
    async donorsOnTheirWay(requestId: string): Promise<string[]> {
      const rows = await db
        .select({ name: users.fullName })
        .from(bloodRequestMatches)
        .innerJoin(users, eq(users.id, bloodRequestMatches.donorId))
        .where(
          and(
            eq(bloodRequestMatches.requestId, requestId),
            eq(bloodRequestMatches.response, 'accepted'),
            isNull(bloodRequestMatches.donatedAt),
            isNull(users.deletedAt),
          ),
        )
        .orderBy(asc(bloodRequestMatches.respondedAt));
      return rows.map((row) => row.name);
    },

    /**
     * The candidate donors of one matching round, in the ranking's order (see `candidateSql`).
     * Two branches, each served by an index: donors with their own point inside the bounding
     * box (`users_donor_geo_idx`, which covers every column read, so the box is read from the
     * index alone), and donors without one whose PIN code centroid is inside it (pincodes'
     * (lat, lng) index, then users by PIN code). Both apply the cheap filters (role donor,
     * approved, not erased, marked available, a compatible blood type, no donation in the last
     * 90 days) and cut to the circle with the haversine distance. Each row carries the
     * date of birth, the questionnaire's answers and whether a review holds them back (rejected,
     * or reopened and not yet decided), the donor's alerts in the fairness window and whether they
     * were already told about this request; the pure `rankCandidates` applies every rule again —
     * eligibility decided from the answers at matching time, not the verdict stored when they
     * were saved (age limits, intervals and timed deferrals that started or ended since) — and
     * orders them.
     *
     * Without `enough`, every candidate in the circle. With it, pages in that order (100 rows,
     * then four times more each time) until `enough(rowsSoFar)` says the ranking has all it
     * needs (e.g. `maxDonorsPerRequest` eligible donors) or the circle is exhausted: the ranking
     * keeps the first eligible rows in this same order, so the rows after a page that is enough
     * could not change its result (short of two distances equal to within a rounding error,
     * which SQL and JavaScript might order differently), and a big city costs a page, not
     * thousands of rows.
     */
    async findCandidates(
      query: CandidateQuery,
      enough?: (rows: CandidateRow[]) => boolean,
    ): Promise<CandidateRow[]> {
      const found: CandidateRow[] = [];
      const seen = new Set<string>();
      let page: CandidatePage = enough ? { limit: FIRST_CANDIDATE_PAGE } : {};
      for (;;) {
        const rows = await executeRows<Record<string, unknown>>(db, candidateSql(query, page));
        for (const row of rows) {
          // A donor whose row changed between two pages could come again: once is enough.
          if (seen.has(String(row.id))) continue;
          seen.add(String(row.id));
          found.push(toCandidate(row));
        }
        const last = rows.at(-1);
        if (!enough || page.limit === undefined || rows.length < page.limit || !last) break;
        if (enough(found)) break;
        page = {
          limit: page.limit * 4,
          after: {
            otherType: Boolean(last.other_type),
            distanceKm: Number(last.distance_km),
            id: String(last.id),
          },
        };
      }
      return found;
    },

    /**
     * Issue #32 item 6: voids a suspended or erased donor's open matches, on open requests
     * (pending, verified, in progress), in ONE statement: not answered yet → `declined` (never
     * asked again; a later YES finds it answered), accepted without a donation → `withdrawn` (out
     * of the accepted count, the contact hidden). One statement, so an acceptance committed while
     * it waited for the match row is re-read and withdrawn too (PostgreSQL re-checks the WHERE on
     * the newest row), and it takes no request lock: no lock-order crossing with a donor's
     * answer, which locks the request first. Returns each voided match's request and new response.
     */
    /**
     * Issue #32 item 6: the donor's account row, locked first by a voiding, in the order a
     * donor's answer takes it (findLockedWithMatch), so the two serialise without deadlock.
     */
    async lockDonorRow(donorId: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, donorId)).for('update');
    },

    async voidOpenMatchesOf(
      donorId: string,
      at: Date,
    ): Promise<{ requestId: string; response: 'declined' | 'withdrawn' }[]> {
      const rows = await db
        .update(bloodRequestMatches)
        .set({
          response: sql`case when ${bloodRequestMatches.response} is null then 'declined'
            else 'withdrawn' end`,
          respondedAt: at,
        })
        .where(
          and(
            eq(bloodRequestMatches.donorId, donorId),
            or(
              isNull(bloodRequestMatches.response),
              and(
                eq(bloodRequestMatches.response, 'accepted'),
                isNull(bloodRequestMatches.donatedAt),
              ),
            ),
            sql`${bloodRequestMatches.requestId} in (select ${bloodRequests.id} from ${bloodRequests}
              where ${bloodRequests.status} in ('pending', 'verified', 'in_progress'))`,
          ),
        )
        .returning({
          requestId: bloodRequestMatches.requestId,
          response: bloodRequestMatches.response,
        });
      return rows.map((row) => ({
        requestId: row.requestId,
        response: row.response === 'withdrawn' ? 'withdrawn' : 'declined',
      }));
    },

    /** Open requests made by this account (erasure cancels them). */
    async openIdsCreatedBy(userId: string): Promise<string[]> {
      const rows = await db
        .select({ id: bloodRequests.id })
        .from(bloodRequests)
        .where(
          and(
            eq(bloodRequests.createdBy, userId),
            inArray(bloodRequests.status, ['pending', 'verified', 'in_progress']),
          ),
        );
      return rows.map((row) => row.id);
    },

    /**
     * Erasure: on every request the account made, the contact phone and e-mail and the patient's
     * name become null, and so does the contact name when it was theirs (their name, phone or
     * e-mail). Returns how many requests were changed.
     */
    async scrubRequester(requester: {
      id: string;
      fullName: string;
      phone: string | null;
      email: string;
    }): Promise<number> {
      const name = requester.fullName.trim().toLowerCase();
      const theirs = or(
        sql`lower(trim(${bloodRequests.contactName})) = ${name}`,
        requester.phone ? eq(bloodRequests.contactPhone, requester.phone) : undefined,
        sql`lower(${bloodRequests.contactEmail}) = ${requester.email.toLowerCase()}`,
      );
      const rows = await db
        .update(bloodRequests)
        .set({
          // SET sees the old values, so `theirs` compares the contact as it was.
          contactName: sql`case when ${theirs} then null else ${bloodRequests.contactName} end`,
          contactPhone: null,
          contactEmail: null,
          patientName: null,
        })
        .where(eq(bloodRequests.createdBy, requester.id))
        .returning({ id: bloodRequests.id });
      return rows.length;
    },

    /** Open requests whose expiry has passed. */
    async dueForExpiry(at: Date, limit = 100): Promise<BloodRequestRow[]> {
      return db
        .select()
        .from(bloodRequests)
        .where(
          and(
            inArray(bloodRequests.status, ['unconfirmed', 'pending', 'verified', 'in_progress']),
            lte(bloodRequests.expiresAt, at),
          ),
        )
        .orderBy(asc(bloodRequests.expiresAt))
        .limit(limit);
    },

    /**
     * Verified or in-progress requests whose last round was at or before `before`, below the
     * maximum radius, with fewer accepted donors than units needed.
     */
    async dueForWidening(
      before: Date,
      maxRadiusKm: number,
      limit = 50,
    ): Promise<BloodRequestRow[]> {
      return db
        .select()
        .from(bloodRequests)
        .where(
          and(
            inArray(bloodRequests.status, ['verified', 'in_progress'] as BloodRequestStatus[]),
            lte(bloodRequests.lastMatchedAt, before),
            sql`${bloodRequests.searchRadiusKm} < ${maxRadiusKm}`,
            sql`(select count(*) from ${bloodRequestMatches} m where m.request_id = ${bloodRequests.id}
                 and m.response = 'accepted') < ${bloodRequests.unitsNeeded}`,
          ),
        )
        .orderBy(asc(bloodRequests.lastMatchedAt))
        .limit(limit);
    },
  };
}

export type BloodRequestsRepository = ReturnType<typeof createBloodRequestsRepository>;
