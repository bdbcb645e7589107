import {
  BLOOD_TYPES,
  GENDERS,
  type BloodType,
  type FeatureFlags,
  type Gender,
  type User,
} from '@bdms/shared';
import { asc, count, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { CallerFacts } from '../plugins/auth';
import {
  documents,
  donations,
  hospitals,
  questionnaires,
  type DocumentRow,
  type QuestionnaireRow,
  type UserRow,
} from '../db/schema';
import { isAvailableNow } from './availability';
import {
  currentEligibility,
  loadDonorFacts,
  onboardingState,
  type DonorFacts,
} from './donor-facts';
import { callerFactsOf, createDonorReads } from './donor-reads';
import { queryAll } from './query-all';

const isBloodType = (value: string | null): value is BloodType =>
  value !== null && (BLOOD_TYPES as readonly string[]).includes(value);
const isGender = (value: string | null): value is Gender =>
  value !== null && (GENDERS as readonly string[]).includes(value);

/** What the user object reports beyond the users row (documents, questionnaire, donations). */
export interface UserViewFacts {
  documents: Pick<DocumentRow, 'id' | 'type' | 'verified' | 'rejectionReason'>[];
  questionnaireCompleted: boolean;
  onboardingCompleted: boolean;
  nextEligibleAt: string | null;
  totalDonations: number;
  /** The clock availability is judged by. */
  now: number;
  /** Hospital accounts: the hospital they sign in for. */
  hospital?: HospitalFacts | null;
}

/** A brand-new account: nothing uploaded, answered or given yet. */
export function emptyFacts(now: number = Date.now()): UserViewFacts {
  return {
    documents: [],
    questionnaireCompleted: false,
    onboardingCompleted: false,
    nextEligibleAt: null,
    totalDonations: 0,
    now,
  };
}

/**
 * The user object of API.md, built from a users row and its facts. It is only ever sent to the
 * user themself or to an administrator, since it carries the e-mail address and phone number.
 * `available` is the effective availability: false once it lapsed (90 days without
 * reconfirmation) or its `until` day passed.
 */
export function toUserView(row: UserRow, facts: UserViewFacts = emptyFacts()): User {
  const isApproved = row.status === 'approved';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    isApproved,
    verification: { isVerified: isApproved },
    onboardingCompleted: facts.onboardingCompleted,
    questionnaireCompleted: facts.questionnaireCompleted,
    documents: facts.documents.map((doc) => ({
      id: doc.id,
      type: doc.type,
      verified: doc.verified,
      rejectionReason: doc.rejectionReason,
    })),
    name: row.fullName,
    fullName: row.fullName,
    phone: row.phone,
    phoneNumber: row.phone,
    phoneVerifiedAt: row.phone && row.phoneVerifiedAt ? row.phoneVerifiedAt.toISOString() : null,
    bloodType: isBloodType(row.bloodType) ? row.bloodType : null,
    gender: isGender(row.gender) ? row.gender : null,
    dateOfBirth: row.dateOfBirth,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    available: isAvailableNow(row, facts.now),
    lastDonationAt: row.lastDonationAt?.toISOString() ?? null,
    nextEligibleAt: facts.nextEligibleAt,
    totalDonations: facts.totalDonations,
    language: row.language,
    createdAt: row.createdAt.toISOString(),
    ...(row.isDemo ? { isDemo: true as const } : {}),
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    suspensionReason: row.status === 'suspended' ? row.suspensionReason : null,
    hospital: facts.hospital ?? null,
  };
}

export interface UserViewsDeps {
  db: Db;
  flags: { getFlags(): Promise<FeatureFlags> };
  now?: () => number;
}

function donorView(row: UserRow, facts: DonorFacts, idProofRequired: boolean, at: number): User {
  const state = onboardingState(facts, idProofRequired);
  return toUserView(row, {
    documents: facts.documents,
    questionnaireCompleted: state.questionnaireCompleted,
    onboardingCompleted: state.onboardingCompleted,
    nextEligibleAt: currentEligibility(row, facts.questionnaire, at)?.nextEligibleAt ?? null,
    totalDonations: facts.totalDonations,
    now: at,
  });
}

/** What a hospital account's user object says of its organisation. */
export interface HospitalFacts {
  id: string;
  name: string;
  verificationStatus: 'pending' | 'verified' | 'rejected';
  rejectionReason: string | null;
  disabled: boolean;
}

async function hospitalFacts(db: Db, ids: string[]): Promise<Map<string, HospitalFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: hospitals.id,
      name: hospitals.name,
      verificationStatus: hospitals.verificationStatus,
      rejectionReason: hospitals.rejectionReason,
      disabledAt: hospitals.disabledAt,
    })
    .from(hospitals)
    .where(inArray(hospitals.id, ids));
  return new Map(
    rows.map(({ disabledAt, ...row }) => [row.id, { ...row, disabled: disabledAt !== null }]),
  );
}

/**
 * Builds full user objects (with documents, questionnaire and donation facts) from rows. Pass
 * the caller's transaction as `db` when inside one, and take the flags before opening it (the
 * flags service reads outside any transaction).
 */
export function createUserViews(deps: UserViewsDeps) {
  const now = deps.now ?? Date.now;
  const reads = createDonorReads(deps.db);

  async function nonDonorView(row: UserRow, db: Db, at: number): Promise<User> {
    const facts = emptyFacts(at);
    if (row.role === 'hospital' && row.hospitalId) {
      const hospital = (await hospitalFacts(db, [row.hospitalId])).get(row.hospitalId);
      if (hospital) facts.hospital = hospital;
    }
    return toUserView(row, facts);
  }

  /**
   * The user object with what authentication needs of the same row (`authenticateWith`), in
   * one statement: `/auth/me`, the hottest signed-in read, costs one round trip (issue #20).
   * Undefined when there is no row; a deleted account's row comes back for the caller check.
   */
  async function loadWithCaller(
    id: string,
  ): Promise<{ caller: CallerFacts; value: User } | undefined> {
    const [found, effective] = await Promise.all([reads.userWithFacts(id), deps.flags.getFlags()]);
    if (!found) return undefined;
    const at = now();
    const { user, facts, hospital } = found;
    const caller = callerFactsOf(user, hospital);
    if (user.role === 'donor') {
      return { caller, value: donorView(user, facts, effective.documentUpload, at) };
    }
    const view = emptyFacts(at);
    if (user.role === 'hospital' && user.hospitalId && hospital) {
      view.hospital = { id: user.hospitalId, ...hospital };
    }
    return { caller, value: toUserView(user, view) };
  }

  return {
    /**
     * The user object of a live account by id, in one statement (the row with its facts);
     * undefined when there is no such account or it was deleted.
     */
    async loadById(id: string): Promise<User | undefined> {
      const found = await loadWithCaller(id);
      return found && !found.caller.deletedAt ? found.value : undefined;
    },

    loadWithCaller,

    async load(row: UserRow, db: Db = deps.db, flags?: FeatureFlags): Promise<User> {
      const at = now();
      if (row.role !== 'donor') return nonDonorView(row, db, at);
      const [facts, effective] = await Promise.all([
        loadDonorFacts(db, row.id),
        flags ?? deps.flags.getFlags(),
      ]);
      return donorView(row, facts, effective.documentUpload, at);
    },

    /**
     * Many user objects with a fixed number of queries (documents, questionnaires, donation
     * counts and hospitals of all rows at once), in the order of `rows`. For admin lists.
     */
    async loadMany(
      rows: readonly UserRow[],
      db: Db = deps.db,
      flags?: FeatureFlags,
    ): Promise<User[]> {
      if (rows.length === 0) return [];
      const at = now();
      const donorIds = rows.filter((row) => row.role === 'donor').map((row) => row.id);
      const hospitalIds = [
        ...new Set(rows.map((row) => row.hospitalId).filter((id): id is string => id !== null)),
      ];
      // `db` may be a transaction (see queryAll); the flags service reads outside it.
      const [[docs, questionnaireRows, totals, names], effective] = await Promise.all([
        queryAll(db, [
          () =>
            donorIds.length
              ? db
                  .select()
                  .from(documents)
                  .where(inArray(documents.userId, donorIds))
                  .orderBy(asc(documents.type))
              : Promise.resolve([] as DocumentRow[]),
          () =>
            donorIds.length
              ? db.select().from(questionnaires).where(inArray(questionnaires.userId, donorIds))
              : Promise.resolve([] as QuestionnaireRow[]),
          () =>
            donorIds.length
              ? db
                  .select({ donorId: donations.donorId, total: count() })
                  .from(donations)
                  .where(inArray(donations.donorId, donorIds))
                  .groupBy(donations.donorId)
              : Promise.resolve([] as { donorId: string | null; total: number }[]),
          () => hospitalFacts(db, hospitalIds),
        ]),
        flags ?? deps.flags.getFlags(),
      ]);
      const docsByUser = new Map<string, DocumentRow[]>();
      for (const doc of docs) {
        const list = docsByUser.get(doc.userId) ?? [];
        list.push(doc);
        docsByUser.set(doc.userId, list);
      }
      const questionnaireByUser = new Map(questionnaireRows.map((row) => [row.userId, row]));
      const totalByUser = new Map(totals.map((row) => [row.donorId, Number(row.total)]));
      return rows.map((row) => {
        if (row.role !== 'donor') {
          const facts = emptyFacts(at);
          const hospital = row.hospitalId ? names.get(row.hospitalId) : undefined;
          if (hospital) facts.hospital = hospital;
          return toUserView(row, facts);
        }
        const facts: DonorFacts = {
          documents: docsByUser.get(row.id) ?? [],
          questionnaire: questionnaireByUser.get(row.id) ?? null,
          totalDonations: totalByUser.get(row.id) ?? 0,
          verifiedUnits: 0,
        };
        return donorView(row, facts, effective.documentUpload, at);
      });
    },
  };
}

export type UserViews = ReturnType<typeof createUserViews>;
