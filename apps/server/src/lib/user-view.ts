import {
  BLOOD_TYPES,
  GENDERS,
  type BloodType,
  type FeatureFlags,
  type Gender,
  type User,
} from '@bdms/shared';
import type { Db } from '../db/client';
import type { DocumentRow, UserRow } from '../db/schema';
import { isAvailableNow } from './availability';
import { currentEligibility, loadDonorFacts, onboardingState } from './donor-facts';

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
    rejectionReason: row.status === 'rejected' ? row.rejectionReason : null,
    suspensionReason: row.status === 'suspended' ? row.suspensionReason : null,
    hospital: null,
  };
}

export interface UserViewsDeps {
  db: Db;
  flags: { getFlags(): Promise<FeatureFlags> };
  now?: () => number;
}

/** Builds full user objects (with documents, questionnaire and donation facts) from rows. */
export function createUserViews(deps: UserViewsDeps) {
  const now = deps.now ?? Date.now;
  return {
    async load(row: UserRow, db: Db = deps.db): Promise<User> {
      const at = now();
      if (row.role !== 'donor') return toUserView(row, emptyFacts(at));
      const [facts, flags] = await Promise.all([loadDonorFacts(db, row.id), deps.flags.getFlags()]);
      const state = onboardingState(facts, flags.documentUpload);
      return toUserView(row, {
        documents: facts.documents,
        questionnaireCompleted: state.questionnaireCompleted,
        onboardingCompleted: state.onboardingCompleted,
        nextEligibleAt: currentEligibility(row, facts.questionnaire, at)?.nextEligibleAt ?? null,
        totalDonations: facts.totalDonations,
        now: at,
      });
    },
  };
}

export type UserViews = ReturnType<typeof createUserViews>;
