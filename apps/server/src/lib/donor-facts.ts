import {
  evaluateEligibility,
  nextEligibleAfterDonation,
  type DonorDocument,
  type Eligibility,
  type OnboardingStatus,
  type Questionnaire,
} from '@bdms/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  documents,
  donations,
  questionnaires,
  type DocumentRow,
  users,
  type QuestionnaireRow,
  type UserRow,
} from '../db/schema';
import { queryAll } from './query-all';

/**
 * What several features read about a donor: documents, questionnaire and donations. It lives
 * in lib/ because the user object, onboarding, stats and the admin screens all need the same
 * answers, and features never import each other.
 */
export interface DonorFacts {
  documents: DocumentRow[];
  questionnaire: QuestionnaireRow | null;
  /** Recorded and reported donations. */
  totalDonations: number;
  /** Units of verified donations (livesImpacted counts these). */
  verifiedUnits: number;
}

/** `db` may be a transaction (approval, onboarding changes): see queryAll. */
export async function loadDonorFacts(db: Db, userId: string): Promise<DonorFacts> {
  const [docs, [questionnaire], [totals]] = await queryAll(db, [
    () =>
      db.select().from(documents).where(eq(documents.userId, userId)).orderBy(asc(documents.type)),
    () => db.select().from(questionnaires).where(eq(questionnaires.userId, userId)).limit(1),
    () =>
      db
        .select({
          total: count(),
          verifiedUnits: sql<string>`coalesce(sum(${donations.units}) filter (where ${donations.verified}), 0)`,
        })
        .from(donations)
        .where(eq(donations.donorId, userId)),
  ]);
  return {
    documents: docs,
    questionnaire: questionnaire ?? null,
    totalDonations: Number(totals?.total ?? 0),
    verifiedUnits: Number(totals?.verifiedUnits ?? 0),
  };
}

export function documentStatus(row: Pick<DocumentRow, 'verified' | 'rejectionReason'>) {
  if (row.verified) return 'verified' as const;
  return row.rejectionReason ? ('rejected' as const) : ('pending' as const);
}

export function toDocumentView(row: DocumentRow): DonorDocument {
  return {
    id: row.id,
    type: row.type,
    fileName: row.fileName,
    mimeType: row.mimeType as DonorDocument['mimeType'],
    size: row.size,
    verified: row.verified,
    rejectionReason: row.rejectionReason,
    status: documentStatus(row),
    uploadedAt: row.uploadedAt.toISOString(),
  };
}

/** A document that still counts: pending review or verified (a rejected one must be replaced). */
const counts = (row: DocumentRow) => documentStatus(row) !== 'rejected';

export interface OnboardingState {
  idProofRequired: boolean;
  documentsUploaded: boolean;
  questionnaireCompleted: boolean;
  onboardingCompleted: boolean;
}

/**
 * API.md: onboarding is complete when the questionnaire is submitted and, while the
 * `documentUpload` flag is on, an ID proof is uploaded. `documentsUploaded` means an ID proof
 * when one is required, else any document; rejected documents do not count.
 */
export function onboardingState(facts: DonorFacts, idProofRequired: boolean): OnboardingState {
  const live = facts.documents.filter(counts);
  const hasIdProof = live.some((row) => row.type === 'id_proof');
  const questionnaireCompleted = facts.questionnaire !== null;
  return {
    idProofRequired,
    documentsUploaded: idProofRequired ? hasIdProof : live.length > 0,
    questionnaireCompleted,
    onboardingCompleted: questionnaireCompleted && (!idProofRequired || hasIdProof),
  };
}

export function toOnboardingStatus(
  user: Pick<UserRow, 'status' | 'rejectionReason'>,
  state: OnboardingState,
): OnboardingStatus {
  return {
    status: user.status,
    documentsUploaded: state.documentsUploaded,
    questionnaireCompleted: state.questionnaireCompleted,
    onboardingCompleted: state.onboardingCompleted,
    steps: [
      // Optional while the flag is off, so it does not block the stepper.
      { key: 'documents', done: state.documentsUploaded || !state.idProofRequired },
      { key: 'questionnaire', done: state.questionnaireCompleted },
      { key: 'review', done: state.onboardingCompleted },
    ],
    idProofRequired: state.idProofRequired,
    rejectionReason: user.status === 'rejected' ? user.rejectionReason : null,
  };
}

/**
 * The donor's eligibility at `now`: the questionnaire's answers with the latest known donation,
 * or, without a questionnaire, only the donation interval. Null when nothing is known.
 */
export function currentEligibility(
  user: Pick<UserRow, 'dateOfBirth' | 'gender' | 'lastDonationAt'>,
  questionnaire: Pick<QuestionnaireRow, 'answers'> | null,
  now: number,
): Eligibility | null {
  if (questionnaire) {
    return evaluateEligibility({
      dateOfBirth: user.dateOfBirth,
      gender: user.gender,
      answers: questionnaire.answers,
      lastDonationAt: user.lastDonationAt,
      now: new Date(now),
    });
  }
  if (!user.lastDonationAt) return null;
  const next = nextEligibleAfterDonation(user.lastDonationAt, user.gender);
  return {
    eligible: now >= next.getTime(),
    nextEligibleAt: next.toISOString(),
    deferrals: [],
    maxVolumeMl: null,
  };
}

/**
 * Recomputes `users.last_donation_at` from the donations table and the questionnaire's answered
 * date, so matching sees the latest one (pass the transaction of the change).
 */
export async function refreshLastDonation(db: Db, userId: string): Promise<Date | null> {
  // One after the other: `db` is a transaction, one connection (see queryAll).
  const [latest] = await db
    .select({ at: sql<Date | string | null>`max(${donations.donatedAt})` })
    .from(donations)
    .where(eq(donations.donorId, userId));
  const [questionnaire] = await db
    .select({ answers: questionnaires.answers })
    .from(questionnaires)
    .where(eq(questionnaires.userId, userId))
    .limit(1);
  const candidates = [
    latest?.at ? new Date(latest.at) : null,
    questionnaire?.answers.lastDonationDate
      ? new Date(`${questionnaire.answers.lastDonationDate}T00:00:00.000Z`)
      : null,
  ].filter((value): value is Date => value !== null);
  const at = candidates.length ? new Date(Math.max(...candidates.map((d) => d.getTime()))) : null;
  await db.update(users).set({ lastDonationAt: at }).where(eq(users.id, userId));
  return at;
}

/** The stored questionnaire with the verdict as it stands at `now` (deferrals end with time). */
export function toQuestionnaireView(
  row: QuestionnaireRow,
  user: Pick<UserRow, 'dateOfBirth' | 'gender' | 'lastDonationAt'>,
  now: number,
): Questionnaire {
  const verdict = currentEligibility(user, row, now) ?? {
    eligible: row.eligible,
    nextEligibleAt: row.nextEligibleAt?.toISOString() ?? null,
    deferrals: row.deferrals,
    maxVolumeMl: null,
  };
  return {
    answers: row.answers,
    submittedAt: row.submittedAt.toISOString(),
    eligible: verdict.eligible,
    nextEligibleAt: verdict.nextEligibleAt,
    deferrals: verdict.deferrals,
    maxVolumeMl: verdict.maxVolumeMl,
    review:
      row.reviewDecision && row.reviewedAt
        ? {
            decision: row.reviewDecision as 'accepted' | 'rejected',
            notes: row.reviewNotes,
            reviewedAt: row.reviewedAt.toISOString(),
            reviewedBy: row.reviewedBy ?? '',
          }
        : null,
    reviewRequired: (row.reviewRequiredReason as Questionnaire['reviewRequired']) ?? null,
  };
}
