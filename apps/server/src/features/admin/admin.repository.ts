import {
  BLOOD_TYPES,
  DONOR_STATUSES,
  type BloodType,
  type DonorStatus,
  type RequestsSummary,
} from '@bdms/shared';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryAll } from '../../lib/query-all';
import {
  activityLog,
  bloodRequests,
  documents,
  donations,
  hospitals,
  mailOutbox,
  questionnaires,
  users,
  type ActivityLogRow,
  type QuestionnaireRow,
  type UserRow,
} from '../../db/schema';

/** A live donor: role donor, not erased. */
const isLiveDonor = and(eq(users.role, 'donor'), isNull(users.deletedAt));

/** `%`, `_` and `\` match themselves in a LIKE pattern (backslash is the escape character). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Name, e-mail, phone, city or PIN code contains `q`, case-insensitively. */
function matchesText(q: string): SQL {
  const pattern = likePattern(q);
  const columns = [users.fullName, users.email, users.phone, users.city, users.pincode];
  return sql`(${sql.join(
    columns.map((column) => sql`${column} ilike ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

/**
 * API.md: onboarding is complete when the questionnaire is submitted and, while `documentUpload`
 * is on, an ID proof that is not rejected (verified, or not yet reviewed) is uploaded — the
 * rule of lib/donor-facts.ts `onboardingState`, in SQL, so lists can sort and export by it.
 */
export function onboardingCompletedSql(idProofRequired: boolean): SQL<boolean> {
  // Spelled out with aliases: drizzle writes columns unqualified in a select list, which
  // inside a subquery would name the subquery's own table.
  const questionnaire = sql.raw(
    'exists (select 1 from questionnaires q where q.user_id = "users"."id")',
  );
  if (!idProofRequired) return sql<boolean>`${questionnaire}`;
  const idProof = sql.raw(
    `exists (select 1 from documents d where d.user_id = "users"."id" and d.type = 'id_proof' and (d.verified or d.rejection_reason is null))`,
  );
  return sql<boolean>`(${questionnaire} and ${idProof})`;
}

/** Donations recorded or reported for the donor of the surrounding `users` row. */
const DONATION_COUNT = sql.raw(
  '(select count(*) from donations dn where dn.donor_id = "users"."id")',
);

export interface DonorFilters {
  status?: DonorStatus;
  bloodType?: BloodType;
  q?: string;
  /** Registered at or after. */
  from?: Date;
  /** Registered before. */
  before?: Date;
}

function donorConditions(filters: DonorFilters): SQL {
  const conditions: (SQL | undefined)[] = [isLiveDonor];
  if (filters.status) conditions.push(eq(users.status, filters.status));
  if (filters.bloodType) conditions.push(eq(users.bloodType, filters.bloodType));
  if (filters.q) conditions.push(matchesText(filters.q));
  if (filters.from) conditions.push(gte(users.createdAt, filters.from));
  if (filters.before) conditions.push(lt(users.createdAt, filters.before));
  return and(...conditions)!;
}

/** One row of the donor export, as read from the database. */
export interface ExportRow {
  id: string;
  fullName: string;
  email: string;
  phone: string | null;
  bloodType: string | null;
  gender: string | null;
  dateOfBirth: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
  status: string;
  available: boolean;
  availabilityConfirmedAt: Date | null;
  availableUntil: string | null;
  onboardingCompleted: boolean;
  totalDonations: number;
  lastDonationAt: Date | null;
  createdAt: Date;
  /** `created_at` in UTC with microseconds, exactly as stored: the keyset cursor. */
  cursorAt: string;
}

/** Where the previous export batch ended. */
export interface ExportCursor {
  cursorAt: string;
  id: string;
}

export function createAdminRepository(db: Db) {
  return {
    /** The donor's row, locked until the transaction ends (status changes race otherwise). */
    async lockDonor(id: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, id), isLiveDonor))
        .for('update')
        .limit(1);
      return row;
    },

    async findDonor(id: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, id), isLiveDonor))
        .limit(1);
      return row;
    },

    async findUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async setStatus(
      id: string,
      change: Pick<UserRow, 'status'> &
        Partial<Pick<UserRow, 'rejectionReason' | 'suspensionReason'>>,
    ): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(change).where(eq(users.id, id)).returning();
      return row;
    },

    async findQuestionnaire(userId: string): Promise<QuestionnaireRow | undefined> {
      const [row] = await db
        .select()
        .from(questionnaires)
        .where(eq(questionnaires.userId, userId))
        .for('update')
        .limit(1);
      return row;
    },

    async saveReview(
      userId: string,
      review: Pick<
        QuestionnaireRow,
        'reviewDecision' | 'reviewNotes' | 'reviewedAt' | 'reviewedBy'
      >,
    ): Promise<QuestionnaireRow | undefined> {
      const [row] = await db
        .update(questionnaires)
        // A review is the decision a reopened one waited for.
        .set({ ...review, reviewRequiredReason: null })
        .where(eq(questionnaires.userId, userId))
        .returning();
      return row;
    },

    /** Newest registrations first. */
    async listDonors(
      filters: DonorFilters,
      page: number,
      pageSize: number,
    ): Promise<{ rows: UserRow[]; total: number }> {
      const where = donorConditions(filters);
      const [rows, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(users)
            .where(where)
            .orderBy(desc(users.createdAt), desc(users.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(users).where(where),
      ]);
      return { rows, total: Number(totals?.total ?? 0) };
    },

    /** Pending donors: those who completed onboarding first, then the longest waiting first. */
    async listPending(
      idProofRequired: boolean,
      page: number,
      pageSize: number,
    ): Promise<{ rows: UserRow[]; total: number }> {
      const where = and(isLiveDonor, eq(users.status, 'pending'));
      const [rows, [totals]] = await queryAll(db, [
        () =>
          db
            .select()
            .from(users)
            .where(where)
            .orderBy(
              sql`${onboardingCompletedSql(idProofRequired)} desc`,
              asc(users.createdAt),
              asc(users.id),
            )
            .limit(pageSize)
            .offset((page - 1) * pageSize),
        () => db.select({ total: count() }).from(users).where(where),
      ]);
      return { rows, total: Number(totals?.total ?? 0) };
    },

    /**
     * Counts over live donors. Availability is the user object's rule (lib/availability.ts):
     * confirmed after `lapsedBefore` and, with an end day, not past it (`today`, UTC).
     */
    async donorStats(input: { since7d: Date; lapsedBefore: Date; today: string }) {
      const [[totals], byBloodType] = await queryAll(db, [
        () =>
          db
            .select({
              total: count(),
              pending: sql<number>`count(*) filter (where ${users.status} = 'pending')`.mapWith(
                Number,
              ),
              approved: sql<number>`count(*) filter (where ${users.status} = 'approved')`.mapWith(
                Number,
              ),
              rejected: sql<number>`count(*) filter (where ${users.status} = 'rejected')`.mapWith(
                Number,
              ),
              suspended: sql<number>`count(*) filter (where ${users.status} = 'suspended')`.mapWith(
                Number,
              ),
              newLast7d:
                sql<number>`count(*) filter (where ${users.createdAt} >= ${input.since7d})`.mapWith(
                  Number,
                ),
              availableNow:
                sql<number>`count(*) filter (where ${users.status} = 'approved' and ${users.available} and ${users.availabilityConfirmedAt} > ${input.lapsedBefore} and (${users.availableUntil} is null or ${users.availableUntil} >= ${input.today}))`.mapWith(
                  Number,
                ),
            })
            .from(users)
            .where(isLiveDonor),
        () =>
          db
            .select({ bloodType: users.bloodType, total: count() })
            .from(users)
            .where(and(isLiveDonor, isNotNull(users.bloodType)))
            .groupBy(users.bloodType),
      ]);
      const bloodTypes: Record<string, number> = Object.fromEntries(
        BLOOD_TYPES.map((type) => [type, 0]),
      );
      for (const row of byBloodType) {
        if (row.bloodType) bloodTypes[row.bloodType] = Number(row.total);
      }
      const byStatus = Object.fromEntries(
        DONOR_STATUSES.map((status) => [status, Number(totals?.[status] ?? 0)]),
      ) as Record<DonorStatus, number>;
      return {
        total: Number(totals?.total ?? 0),
        byStatus,
        byBloodType: bloodTypes,
        newLast7d: Number(totals?.newLast7d ?? 0),
        availableNow: Number(totals?.availableNow ?? 0),
      };
    },

    async listDonations(donorId: string, limit: number) {
      return db
        .select()
        .from(donations)
        .where(eq(donations.donorId, donorId))
        .orderBy(desc(donations.donatedAt), desc(donations.createdAt))
        .limit(limit);
    },

    async listDocuments(userId: string) {
      return db
        .select()
        .from(documents)
        .where(eq(documents.userId, userId))
        .orderBy(asc(documents.type));
    },

    /** Where the donor acted or was acted on, newest first. */
    async listDonorActivity(userId: string, limit: number): Promise<ActivityLogRow[]> {
      return db
        .select()
        .from(activityLog)
        .where(
          or(
            eq(activityLog.actorId, userId),
            and(eq(activityLog.targetType, 'user'), eq(activityLog.targetId, userId)),
          ),
        )
        .orderBy(desc(activityLog.at), desc(activityLog.id))
        .limit(limit);
    },

    async listRecentActivity(limit: number): Promise<ActivityLogRow[]> {
      return db
        .select()
        .from(activityLog)
        .orderBy(desc(activityLog.at), desc(activityLog.id))
        .limit(limit);
    },

    /** Names and roles of users (erased ones read "Deleted user"); never contact details. */
    async userLabels(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: users.id, name: users.fullName, role: users.role })
        .from(users)
        .where(inArray(users.id, ids));
    },

    async hospitalLabels(ids: string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: hospitals.id, name: hospitals.name })
        .from(hospitals)
        .where(inArray(hospitals.id, ids));
    },

    /**
     * One batch of the donor export: donors registered up to `cutoff`, in (created_at, id)
     * order after `after`. The cursor is the stored timestamp as text with microseconds, so no
     * row is read twice or skipped (a JavaScript Date would cut it to milliseconds).
     */
    async exportBatch(input: {
      filters: DonorFilters;
      cutoff: Date;
      idProofRequired: boolean;
      after: ExportCursor | null;
      limit: number;
    }): Promise<ExportRow[]> {
      const conditions = [donorConditions(input.filters), lt(users.createdAt, input.cutoff)];
      if (input.after) {
        conditions.push(
          sql`(${users.createdAt}, ${users.id}) > (${input.after.cursorAt}::timestamptz, ${input.after.id}::uuid)`,
        );
      }
      const rows = await db
        .select({
          id: users.id,
          fullName: users.fullName,
          email: users.email,
          phone: users.phone,
          bloodType: users.bloodType,
          gender: users.gender,
          dateOfBirth: users.dateOfBirth,
          city: users.city,
          state: users.state,
          pincode: users.pincode,
          status: users.status,
          available: users.available,
          availabilityConfirmedAt: users.availabilityConfirmedAt,
          availableUntil: users.availableUntil,
          onboardingCompleted: onboardingCompletedSql(input.idProofRequired).mapWith(Boolean),
          totalDonations: sql<number>`${DONATION_COUNT}`.mapWith(Number),
          lastDonationAt: users.lastDonationAt,
          createdAt: users.createdAt,
          cursorAt: sql<string>`to_char("users"."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        })
        .from(users)
        .where(and(...conditions))
        .orderBy(asc(users.createdAt), asc(users.id))
        .limit(input.limit);
      return rows;
    },

    /** The mail outbox over the last 24 hours, for the e-mail status panel. */
    async mailStats(since: Date) {
      const [[totals], [latest]] = await queryAll(db, [
        () =>
          db
            .select({
              sent: sql<number>`count(*) filter (where ${mailOutbox.status} = 'sent' and ${mailOutbox.sentAt} >= ${since})`.mapWith(
                Number,
              ),
              // A message that gave up has its next_attempt_at set to the moment it gave up.
              failed:
                sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed' and ${mailOutbox.nextAttemptAt} >= ${since})`.mapWith(
                  Number,
                ),
              queued: sql<number>`count(*) filter (where ${mailOutbox.status} = 'queued')`.mapWith(
                Number,
              ),
            })
            .from(mailOutbox),
        () =>
          db
            .select({ lastError: mailOutbox.lastError })
            .from(mailOutbox)
            .where(
              and(
                isNotNull(mailOutbox.lastError),
                inArray(mailOutbox.status, ['queued', 'failed']),
              ),
            )
            .orderBy(desc(mailOutbox.nextAttemptAt))
            .limit(1),
      ]);
      return {
        sent24h: Number(totals?.sent ?? 0),
        failed24h: Number(totals?.failed ?? 0),
        queued: Number(totals?.queued ?? 0),
        lastError: latest?.lastError ?? null,
      };
    },

    /**
     * The requests summary (API.md "Admin"): counts by status and urgency over all requests
     * (only the values that occur), open critical ones (pending, verified or
     * in progress), those fulfilled since `since30d`, and the median hours from creation to
     * fulfilment of those.
     */
    async summarizeBloodRequests(since30d: Date): Promise<RequestsSummary> {
      const [byStatusRows, byUrgencyRows, [figures]] = await queryAll(db, [
        () =>
          db
            .select({ key: bloodRequests.status, n: count() })
            .from(bloodRequests)
            .groupBy(bloodRequests.status),
        () =>
          db
            .select({ key: bloodRequests.urgency, n: count() })
            .from(bloodRequests)
            .groupBy(bloodRequests.urgency),
        () =>
          db
            .select({
              openCritical: sql<string>`count(*) filter (where ${bloodRequests.urgency} = 'critical'
              and ${bloodRequests.status} in ('pending', 'verified', 'in_progress'))`,
              fulfilledLast30d: sql<string>`count(*) filter (where ${bloodRequests.status} = 'fulfilled'
              and ${bloodRequests.fulfilledAt} >= ${since30d.toISOString()}::timestamptz)`,
              medianHours: sql<string | null>`percentile_cont(0.5) within group (order by
              extract(epoch from (${bloodRequests.fulfilledAt} - ${bloodRequests.createdAt})) / 3600)
              filter (where ${bloodRequests.status} = 'fulfilled'
                and ${bloodRequests.fulfilledAt} >= ${since30d.toISOString()}::timestamptz)`,
            })
            .from(bloodRequests),
      ]);
      const byStatus: Record<string, number> = {};
      for (const row of byStatusRows) byStatus[row.key] = Number(row.n);
      const byUrgency: Record<string, number> = {};
      for (const row of byUrgencyRows) byUrgency[row.key] = Number(row.n);
      const median = figures?.medianHours;
      return {
        total: Object.values(byStatus).reduce((sum, n) => sum + n, 0),
        byStatus,
        byUrgency,
        openCritical: Number(figures?.openCritical ?? 0),
        fulfilledLast30d: Number(figures?.fulfilledLast30d ?? 0),
        medianHoursToFulfil:
          median === null || median === undefined ? null : Math.round(Number(median) * 10) / 10,
      };
    },
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
