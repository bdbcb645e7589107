import type { Deferral, QuestionnaireAnswers, QuestionnaireReviewReason } from '@bdms/shared';
import { and, eq, gte, isNotNull, isNull, lt, lte, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { questionnaires, users, type QuestionnaireRow, type UserRow } from '../../db/schema';
import { isTransaction } from '../../lib/query-all';

/** The users row by id, prepared once per pool (issue #20: every donor screen reads it). */
function prepareFindUser(db: Db) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('donors_find_user');
}
const preparedFindUser = new WeakMap<Db, ReturnType<typeof prepareFindUser>>();

export function createDonorsRepository(db: Db) {
  return {
    async findUser(id: string): Promise<UserRow | undefined> {
      if (isTransaction(db)) {
        const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
        return row;
      }
      let prepared = preparedFindUser.get(db);
      if (!prepared) {
        prepared = prepareFindUser(db);
        preparedFindUser.set(db, prepared);
      }
      const [row] = await prepared.execute({ id });
      return row;
    },

    async findQuestionnaire(userId: string): Promise<QuestionnaireRow | undefined> {
      const [row] = await db
        .select()
        .from(questionnaires)
        .where(eq(questionnaires.userId, userId))
        .limit(1);
      return row;
    },

    /**
     * Saves the answers and their verdict. `review: 'keep'` leaves an administrator's review as
     * it is (the same answers saved again); otherwise the review is cleared — new answers need a
     * new one — and `requiredReason`, when set, holds the donor out of matching until it comes.
     */
    async saveQuestionnaire(
      row: {
        userId: string;
        answers: QuestionnaireAnswers;
        eligible: boolean;
        nextEligibleAt: Date | null;
        deferrals: Deferral[];
        submittedAt: Date;
      },
      review: 'keep' | { requiredReason: QuestionnaireReviewReason | null },
    ): Promise<QuestionnaireRow> {
      const reviewChange =
        review === 'keep'
          ? {}
          : {
              reviewDecision: null,
              reviewNotes: null,
              reviewedAt: null,
              reviewedBy: null,
              reviewRequiredReason: review.requiredReason,
            };
      const [saved] = await db
        .insert(questionnaires)
        .values({ ...row, ...reviewChange })
        .onConflictDoUpdate({ target: questionnaires.userId, set: { ...row, ...reviewChange } })
        .returning();
      if (!saved) throw new Error('questionnaires upsert returned no row');
      return saved;
    },

    async setAvailability(
      id: string,
      change: Pick<
        UserRow,
        'available' | 'availableUntil' | 'availabilityConfirmedAt' | 'availabilityRemindedAt'
      >,
    ): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(change).where(eq(users.id, id)).returning();
      return row;
    },

    /** Live donors whose availability lapses within the reminder window and who were not reminded. */
    async listToRemind(windowStart: Date, expiredBefore: Date) {
      return db
        .select({
          id: users.id,
          availabilityConfirmedAt: users.availabilityConfirmedAt,
          availableUntil: users.availableUntil,
        })
        .from(users)
        .where(
          and(
            eq(users.role, 'donor'),
            isNull(users.deletedAt),
            eq(users.available, true),
            isNull(users.availabilityRemindedAt),
            isNotNull(users.availabilityConfirmedAt),
            lte(users.availabilityConfirmedAt, windowStart),
            gt(users.availabilityConfirmedAt, expiredBefore),
          ),
        );
    },

    async markReminded(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ availabilityRemindedAt: at })
        .where(and(eq(users.id, id), isNull(users.availabilityRemindedAt)))
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /**
     * Approved donors whose latest donation is between `donatedAfter` and `donatedBefore` and
     * who were not yet told they may give again after it, with what the matcher reads to decide
     * whether they may give (issue #32 item 1: the date of birth, the answers and whether a
     * review holds them, as `candidateSql` reads them); the caller decides and checks the day.
     */
    async listDueEligibilityReminder(donatedAfter: Date, donatedBefore: Date) {
      const rows = await db
        .select({
          id: users.id,
          gender: users.gender,
          dateOfBirth: users.dateOfBirth,
          lastDonationAt: users.lastDonationAt,
          answers: questionnaires.answers,
          onHold: sql<boolean>`(${questionnaires.reviewDecision} is not distinct from 'rejected'
            or ${questionnaires.reviewRequiredReason} is not null)`,
        })
        .from(users)
        .leftJoin(questionnaires, eq(questionnaires.userId, users.id))
        .where(
          and(
            eq(users.role, 'donor'),
            eq(users.status, 'approved'),
            isNull(users.deletedAt),
            isNotNull(users.lastDonationAt),
            gte(users.lastDonationAt, donatedAfter),
            lte(users.lastDonationAt, donatedBefore),
            sql`${users.eligibilityRemindedFor} is distinct from ${users.lastDonationAt}`,
          ),
        );
      return rows.map(({ answers, onHold, ...row }) => ({
        ...row,
        questionnaire: answers ? { answers, onHold: Boolean(onHold) } : null,
      }));
    },

    /**
     * Claims the reminder for the donation `lastDonationAt` (false when another run did, or a
     * newer donation was recorded meanwhile): one notification per eligibility.
     */
    async markEligibilityReminded(id: string, lastDonationAt: Date): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ eligibilityRemindedFor: lastDonationAt })
        .where(
          and(
            eq(users.id, id),
            eq(users.lastDonationAt, lastDonationAt),
            sql`${users.eligibilityRemindedFor} is distinct from ${users.lastDonationAt}`,
          ),
        )
        .returning({ id: users.id });
      return rows.length > 0;
    },

    /** Turns off availability that lapsed (not reconfirmed) or whose `until` day passed. */
    async markLapsed(expiredBefore: Date, today: string) {
      return db
        .update(users)
        .set({ available: false })
        .where(
          and(
            eq(users.available, true),
            or(
              isNull(users.availabilityConfirmedAt),
              lte(users.availabilityConfirmedAt, expiredBefore),
              lt(users.availableUntil, today),
            ),
          ),
        )
        .returning({ id: users.id });
    },
  };
}

export type DonorsRepository = ReturnType<typeof createDonorsRepository>;
