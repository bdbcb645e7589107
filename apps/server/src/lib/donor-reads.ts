import type { Deferral, DocumentType, QuestionnaireAnswers } from '@bdms/shared';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { cachedRead } from '../db/read-cache';
import {
  hospitals,
  users,
  type DocumentRow,
  type QuestionnaireRow,
  type UserRow,
} from '../db/schema';
import { acceptedRequestsOf } from './blood-request-links';
import { CALLER_COLUMNS, callerFactsFrom, type CallerFacts } from '../plugins/auth';
import type { DonorFacts } from './donor-facts';

/**
 * The hot reads of a signed-in donor's screens (the user object, the dashboard stats) in ONE
 * prepared statement each, where they used to take a query per table (issue #20: most of a
 * signed-in call's time was the round trips). Related rows come back as JSON (`to_json`,
 * `json_agg`) and are turned back into the same rows the separate queries gave.
 *
 * The subqueries name the outer table in plain SQL (`users.id`): Drizzle writes a column of a
 * one-table select without its table (`"id"`), which inside a subquery would mean the
 * subquery's own `id`.
 */

/** `to_json` of a documents row: snake_case keys, timestamps as ISO text. */
interface DocumentJson {
  id: string;
  user_id: string;
  type: DocumentType;
  file_name: string;
  mime_type: string;
  size: number;
  storage_name: string;
  verified: boolean;
  rejection_reason: string | null;
  verified_by: string | null;
  verified_at: string | null;
  uploaded_at: string;
}

/** `to_json` of a questionnaires row. */
interface QuestionnaireJson {
  user_id: string;
  answers: QuestionnaireAnswers;
  eligible: boolean;
  next_eligible_at: string | null;
  deferrals: Deferral[];
  submitted_at: string;
  review_decision: string | null;
  review_notes: string | null;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_required_reason: string | null;
}

const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

export function documentFromJson(json: DocumentJson): DocumentRow {
  return {
    id: json.id,
    userId: json.user_id,
    type: json.type,
    fileName: json.file_name,
    mimeType: json.mime_type,
    size: json.size,
    storageName: json.storage_name,
    verified: json.verified,
    rejectionReason: json.rejection_reason,
    verifiedBy: json.verified_by,
    verifiedAt: toDate(json.verified_at),
    uploadedAt: new Date(json.uploaded_at),
  };
}

export function questionnaireFromJson(json: QuestionnaireJson): QuestionnaireRow {
  return {
    userId: json.user_id,
    answers: json.answers,
    eligible: json.eligible,
    nextEligibleAt: toDate(json.next_eligible_at),
    deferrals: json.deferrals,
    submittedAt: new Date(json.submitted_at),
    reviewDecision: json.review_decision,
    reviewNotes: json.review_notes,
    reviewedAt: toDate(json.reviewed_at),
    reviewedBy: json.reviewed_by,
    reviewRequiredReason: json.review_required_reason,
  };
}

export interface UserWithFacts {
  user: UserRow;
  /** Meaningful for donors; empty lists and zeros for other roles. */
  facts: DonorFacts;
  /** The hospital a hospital account signs in for, when it has one (issue #17: and its standing). */
  hospital: {
    name: string;
    verificationStatus: 'pending' | 'verified' | 'rejected';
    rejectionReason: string | null;
    disabled: boolean;
  } | null;
  /** Blood requests the donor accepted (acceptedRequestsOf). */
  acceptedRequests: number;
}

/** What authentication needs (plugins/auth.ts), from a users row and its hospital's standing. */
export function callerFactsOf(
  user: UserRow,
  hospital: Pick<NonNullable<UserWithFacts['hospital']>, 'verificationStatus' | 'disabled'> | null,
): CallerFacts {
  return {
    id: user.id,
    role: user.role,
    status: user.status,
    deletedAt: user.deletedAt,
    tokenVersion: user.tokenVersion,
    hospitalStatus: hospital?.verificationStatus ?? null,
    hospitalDisabled: hospital?.disabled ?? false,
  };
}

/**
 * Prepared reads on `db` (the pool or PGlite itself, never a transaction: a prepared statement
 * belongs to the handle it was made on). Create once per database handle.
 */
export function createDonorReads(db: Db) {
  const userWithFactsQuery = db
    .select({
      user: getTableColumns(users),
      documents: sql<DocumentJson[]>`coalesce((
        select json_agg(to_json(d) order by d.type) from documents d where d.user_id = users.id
      ), '[]'::json)`,
      questionnaire: sql<QuestionnaireJson | null>`(
        select to_json(q) from questionnaires q where q.user_id = users.id
      )`,
      donationTotals: sql<{ total: number; verified_units: number }>`(
        select json_build_object(
          'total', count(*),
          'verified_units', coalesce(sum(dn.units) filter (where dn.verified), 0)
        ) from donations dn where dn.donor_id = users.id
      )`,
      acceptedRequests: acceptedRequestsOf(sql`users.id`),
      hospital: sql<{
        name: string;
        verification_status: 'pending' | 'verified' | 'rejected';
        rejection_reason: string | null;
        disabled: boolean;
      } | null>`(
        select json_build_object(
          'name', h.name,
          'verification_status', h.verification_status,
          'rejection_reason', h.rejection_reason,
          'disabled', h.disabled_at is not null
        ) from hospitals h where h.id = users.hospital_id
      )`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('donor_reads_user_with_facts');
  // Served from memory while none of its tables was written (db/read-cache.ts).
  const userWithFacts = cachedRead(db, 'donor_reads_user_with_facts', userWithFactsQuery);

  // The row and its hospital's standing: a self read that also authenticates the caller.
  const userWithStandingQuery = db
    .select({
      user: getTableColumns(users),
      caller: CALLER_COLUMNS,
    })
    .from(users)
    .leftJoin(hospitals, eq(hospitals.id, users.hospitalId))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('donor_reads_user_with_standing');
  const userWithStanding = cachedRead(db, 'donor_reads_user_with_standing', userWithStandingQuery);

  return {
    /** The users row (deleted or not) with what authentication needs; undefined: no row. */
    async userWithCaller(id: string): Promise<{ user: UserRow; caller: CallerFacts } | undefined> {
      const [row] = await userWithStanding({ id });
      return row && { user: row.user, caller: callerFactsFrom(row.caller) };
    },

    /** The users row (deleted or not) with its donor facts; undefined when there is no row. */
    async userWithFacts(id: string): Promise<UserWithFacts | undefined> {
      const [row] = await userWithFacts({ id });
      if (!row) return undefined;
      return {
        user: row.user,
        facts: {
          documents: row.documents.map(documentFromJson),
          questionnaire: row.questionnaire ? questionnaireFromJson(row.questionnaire) : null,
          totalDonations: Number(row.donationTotals.total),
          verifiedUnits: Number(row.donationTotals.verified_units),
        },
        hospital: row.hospital && {
          name: row.hospital.name,
          verificationStatus: row.hospital.verification_status,
          rejectionReason: row.hospital.rejection_reason,
          disabled: row.hospital.disabled,
        },
        acceptedRequests: Number(row.acceptedRequests),
      };
    },
  };
}

export type DonorReads = ReturnType<typeof createDonorReads>;
