import type { BloodType, QuestionnaireAnswers } from '@bdms/shared';
import { and, desc, eq, getTableColumns, gte, inArray, is, isNull, SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  placeholdersFor,
  prebuilt,
  prebuiltByShape,
  ph,
  shapeOfParts,
  type Alongside,
} from '../../db/prebuilt';
import {
  activityLog,
  bloodRequestHistory,
  bloodRequestMatches,
  bloodRequests,
  questionnaires,
  users,
  type BloodRequestMatchRow,
  type BloodRequestRow,
  type NewActivityLogRow,
  type NewBloodRequestRow,
} from '../../db/schema';
import {
  notificationBatchStatements,
  notificationBatchValues,
  type NotificationBatch,
} from '../notifications/notification-batch';

/**
 * The statements of the emergency path — a request taken in, a donor's answer, a status change —
 * built once per process and sent with the rows that go with them (its history step, its audit
 * entry) in one round trip (db/prebuilt.ts, issue #20).
 */

export type HistoryStep = typeof bloodRequestHistory.$inferInsert;

/** What a change writes beside itself: its history step and its audit entries. */
export interface Trail {
  history?: HistoryStep;
  activity?: NewActivityLogRow[];
}

/** The trail as parts of a statement's values: `h` its history step, `a0`, `a1`… its entries. */
function trailValues(trail: Trail): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  if (trail.history) values.h = trail.history;
  for (const [index, entry] of (trail.activity ?? []).entries()) {
    values[`a${index}`] = { ...entry, details: entry.details ?? {} };
  }
  return values;
}

function trailStatements(db: Db, values: Record<string, unknown>): Alongside[] {
  const statements: Alongside[] = [];
  const history = values.h as HistoryStep | undefined;
  if (history) {
    statements.push(
      db
        .insert(bloodRequestHistory)
        .values(placeholdersFor(history, 'h') as unknown as HistoryStep),
    );
  }
  for (let index = 0; values[`a${index}`]; index += 1) {
    const entry = values[`a${index}`] as NewActivityLogRow;
    statements.push(
      db
        .insert(activityLog)
        .values(placeholdersFor(entry, `a${index}`) as unknown as NewActivityLogRow),
    );
  }
  return statements;
}

/** A trail's part of a statement's values: `h`, `a0`, `a1`… */
const TRAIL_PART = /^(?:h|a\d+)$/;

/**
 * One build per combination of given columns the code uses (see shapeOfParts): the columns of
 * `parts` and of the trail's parts, and which other values are given.
 */
const shapeWith =
  (...parts: string[]) =>
  (values: Record<string, unknown>) => {
    const named: string[] = [...parts];
    let others = '';
    for (const key in values) {
      if (TRAIL_PART.test(key)) named.push(key);
      else if (!parts.includes(key)) others += `|${key}`;
    }
    return shapeOfParts(values, named) + others;
  };

/**
 * The columns a new row does not give (their database defaults): all the insert returns. What it
 * gives comes back as given, so reading 37 columns back on every request is work for nothing
 * (issue #20).
 */
function columnsNotGiven(row: Record<string, unknown>) {
  const columns = getTableColumns(bloodRequests);
  const out: Record<string, (typeof columns)[keyof typeof columns]> = {};
  for (const [key, column] of Object.entries(columns)) {
    if (row[key] === undefined) out[key] = column;
  }
  return Object.keys(out).length > 0 ? out : { id: columns.id };
}

const insertStatement = prebuiltByShape(shapeWith('r'), (db, values) => ({
  main: db
    .insert(bloodRequests)
    .values(placeholdersFor(values.r as NewBloodRequestRow, 'r') as unknown as NewBloodRequestRow)
    .returning(columnsNotGiven(values.r as Record<string, unknown>)),
  alongside: [
    ...trailStatements(db, values),
    ...(values.n === undefined ? [] : notificationBatchStatements(db)),
  ],
}));

/**
 * A new request (its `id` given, so its trail can point at it) with its trail, in one statement,
 * and with `told` (the notifications it sends, planned beforehand) when given. A tracking code
 * already taken fails the statement (a unique violation): the caller starts its transaction
 * again with a new code.
 */
export async function insertRequest(
  db: Db,
  row: NewBloodRequestRow & { id: string },
  trail: Trail,
  told?: NotificationBatch,
): Promise<BloodRequestRow> {
  const values = { r: row, ...trailValues(trail), ...(told ? notificationBatchValues(told) : {}) };
  const written: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (value !== undefined) written[key] = value;
  // What it does not give is its columns' constant defaults: the row is known without reading
  // it back, and the insert goes with the transaction's next statement (db/prebuilt.ts).
  const defaults = constantDefaults(row);
  if (defaults && (await insertStatement.withNext(db, values))) {
    return { ...written, ...defaults } as BloodRequestRow;
  }
  const [inserted] = (await insertStatement(db, values)) as Partial<BloodRequestRow>[];
  if (!inserted) throw new Error('blood_requests insert returned no row');
  return { ...written, ...inserted } as BloodRequestRow;
}

/**
 * The values the database gives the columns `row` leaves out, when each is a constant (a value
 * default, or null); null when one is computed there (`now()`, a random id).
 */
let requestColumns: [string, PgColumn][] | undefined;
function constantDefaults(row: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  requestColumns ??= Object.entries(getTableColumns(bloodRequests));
  for (const [key, column] of requestColumns) {
    if (row[key] !== undefined) continue;
    if (column.defaultFn || column.onUpdateFn || is(column.default, SQL)) return null;
    if (column.default === undefined && column.notNull) return null;
    out[key] = column.default ?? null;
  }
  return out;
}

const updateStatement = prebuiltByShape(shapeWith('r'), (db, values) => ({
  main: db
    .update(bloodRequests)
    .set(
      placeholdersFor(values.r as Partial<NewBloodRequestRow>, 'r') as Partial<NewBloodRequestRow>,
    )
    .where(eq(bloodRequests.id, ph('id')))
    .returning(),
  alongside: trailStatements(db, values),
}));

/**
 * Changes request `id` and writes its trail, in one statement. `updatedAt` is required: the
 * column's own on-update value would be computed once, when the statement is built.
 */
export async function updateRequest(
  db: Db,
  id: string,
  set: Partial<NewBloodRequestRow> & { updatedAt: Date },
  trail: Trail = {},
): Promise<BloodRequestRow> {
  const [row] = (await updateStatement(db, {
    id,
    r: set,
    ...trailValues(trail),
  })) as BloodRequestRow[];
  if (!row) throw new Error('blood_requests update returned no row');
  return row;
}

const OPEN_STATUSES = ['pending', 'verified', 'in_progress'] as const;

const phoneStateStatement = prebuiltByShape(
  (values: Record<string, unknown>) => ('facilityId' in values ? 'facility' : 'name'),
  (db, values) => {
    const sameHospital =
      'facilityId' in values
        ? eq(bloodRequests.facilityId, ph('facilityId'))
        : and(
            eq(bloodRequests.hospitalNameKey, ph('hospitalNameKey')),
            sql`lower(${bloodRequests.city}) = lower(${ph('city')})`,
          );
    // The newest `limitMax`-th request of this phone by a guest or a donor within the limit's
    // window (milliseconds since the epoch): there is one only when the phone is at its limit.
    const limitedFrom = sql<number | string | null>`(
      select (extract(epoch from br.created_at) * 1000)::float8 from ${bloodRequests} br
      where br.contact_phone = ${ph('contactPhone')} and br.created_at >= ${ph('limitSince')}
        and br.created_by_role in ('guest', 'donor')
      order by br.created_at desc limit 1 offset ${ph('limitOffset')})`;
    return {
      main: db
        .select({ limitedFrom, duplicateId: bloodRequests.id })
        .from(sql`(select 1) as one`)
        .leftJoin(
          bloodRequests,
          and(
            eq(bloodRequests.contactPhone, ph('contactPhone')),
            eq(bloodRequests.bloodType, ph('bloodType')),
            inArray(bloodRequests.status, [...OPEN_STATUSES]),
            gte(bloodRequests.createdAt, ph('duplicateSince')),
            sameHospital,
          ),
        )
        .orderBy(desc(bloodRequests.createdAt))
        .limit(1),
    };
  },
);

/**
 * What a new request with this phone meets, in one statement: whether the phone is at its limit
 * (`limitedFrom`: when the `limit.max`-th newest of its requests since `limit.since` was made) and
 * an open request with the same phone, blood type and hospital (the facility, or the normalised
 * name and city) made since `duplicateSince`: the duplicate guard's answer. The statement gives
 * the duplicate's id, and its row is read only when there is one (rarely): 37 columns described
 * and read back on every request were about 3 % of its CPU (issue #20).
 */
export async function phoneState(
  db: Db,
  input: {
    contactPhone: string;
    bloodType: BloodType;
    facilityId: string | null;
    hospitalNameKey: string;
    city: string;
    duplicateSince: Date;
    limit: { max: number; since: Date };
  },
  /** A statement to run first (the phone's lock), in the same message where it can. */
  leading?: string,
): Promise<{ limitedFrom: number | null; duplicate: BloodRequestRow | undefined }> {
  const hospital = input.facilityId
    ? { facilityId: input.facilityId }
    : { hospitalNameKey: input.hospitalNameKey, city: input.city };
  const values = {
    contactPhone: input.contactPhone,
    bloodType: input.bloodType,
    duplicateSince: input.duplicateSince.toISOString(),
    limitSince: input.limit.since.toISOString(),
    limitOffset: input.limit.max - 1,
    ...hospital,
  };
  const [row] = (await (leading
    ? phoneStateStatement.after(db, leading, values)
    : phoneStateStatement(db, values))) as {
    limitedFrom: number | string | null;
    duplicateId: string | null;
  }[];
  const duplicate = row?.duplicateId
    ? (await db.select().from(bloodRequests).where(eq(bloodRequests.id, row.duplicateId)))[0]
    : undefined;
  return {
    limitedFrom: row?.limitedFrom == null ? null : Number(row.limitedFrom),
    duplicate,
  };
}

const lockedWithMatchStatement = prebuilt((db) => ({
  main: db
    .select({
      request: getTableColumns(bloodRequests),
      match: getTableColumns(bloodRequestMatches),
      // Issue #32 items 2 and 6: who the donor is at this moment, in the same statement.
      donor: {
        status: users.status,
        deletedAt: users.deletedAt,
        gender: users.gender,
        dateOfBirth: users.dateOfBirth,
        lastDonationAt: users.lastDonationAt,
      },
      answers: questionnaires.answers,
      onHold: sql<boolean | null>`(${questionnaires.userId} is not null
        and (${questionnaires.reviewDecision} is not distinct from 'rejected'
          or ${questionnaires.reviewRequiredReason} is not null))`,
    })
    .from(bloodRequests)
    .leftJoin(
      bloodRequestMatches,
      and(
        eq(bloodRequestMatches.requestId, bloodRequests.id),
        eq(bloodRequestMatches.donorId, ph('donorId')),
      ),
    )
    // The donor's row is locked too (issue #32 item 6): a suspension or erasure that locked it
    // first is waited for and its new status read; one that comes after waits for this answer
    // and then voids it. Either way no acceptance of a suspended donor stays.
    .innerJoin(users, eq(users.id, ph('donorId')))
    .leftJoin(questionnaires, eq(questionnaires.userId, users.id))
    .where(eq(bloodRequests.id, ph('requestId')))
    .limit(1)
    .for('update', { of: [bloodRequests, users] }),
}));

/**
 * What the matcher knows about a donor (status, deletion, sex, date of birth, last donation,
 * the questionnaire and whether a review holds it: the candidate query's facts), as read when
 * they answer (issue #32 item 2: eligibility is decided again at that moment).
 */
export interface DonorSelectionFacts {
  status: string;
  deletedAt: Date | null;
  gender: string | null;
  dateOfBirth: string | null;
  lastDonationAt: Date | null;
  questionnaire: { answers: QuestionnaireAnswers; onHold: boolean } | null;
}

/**
 * The request and the donor's account, locked (FOR UPDATE), with `donorId`'s match on the
 * request (null: not asked) and the donor's selection facts, in one statement: a donor's answer
 * reads them all first. Undefined when either is missing.
 */
export async function findLockedWithMatch(
  db: Db,
  requestId: string,
  donorId: string,
): Promise<
  | {
      request: BloodRequestRow;
      match: BloodRequestMatchRow | null;
      donor: DonorSelectionFacts;
    }
  | undefined
> {
  const [found] = (await lockedWithMatchStatement(db, { requestId, donorId })) as {
    request: BloodRequestRow;
    match: BloodRequestMatchRow | null;
    donor: Omit<DonorSelectionFacts, 'questionnaire'>;
    answers: QuestionnaireAnswers | string | null;
    onHold: boolean | null;
  }[];
  if (!found) return undefined;
  const { request, match, donor, answers, onHold } = found;
  return {
    request,
    match,
    donor: {
      ...donor,
      questionnaire: answers
        ? {
            answers: (typeof answers === 'string'
              ? JSON.parse(answers)
              : answers) as QuestionnaireAnswers,
            onHold: Boolean(onHold),
          }
        : null,
    },
  };
}

const answerStatement = prebuiltByShape(shapeWith(), (db, values) => ({
  main: db
    .update(bloodRequestMatches)
    .set({ response: ph('response'), respondedAt: ph('respondedAt') } as never)
    .where(
      and(
        eq(bloodRequestMatches.id, ph('matchId')),
        // Withdrawing changes an acceptance; the other answers change only an unanswered match.
        'from' in values
          ? eq(bloodRequestMatches.response, ph('from'))
          : isNull(bloodRequestMatches.response),
      ),
    )
    .returning({
      ...getTableColumns(bloodRequestMatches),
      // Read with the statement's snapshot: the acceptances before this answer. The outer row is
      // named in full (Drizzle writes a returned column without its table, which here would be m's).
      acceptedBefore: sql<number>`(select count(*)::int from ${bloodRequestMatches} m
        where m.request_id = "blood_request_matches"."request_id" and m.response = 'accepted')`,
    }),
  alongside: trailStatements(db, values),
}));

/**
 * Records a donor's answer on match `matchId` with its audit entry, in one statement; undefined
 * when the match was not in the state the answer changes (answered meanwhile). `accepted` is how
 * many donors of the request have accepted once this answer counts: exact while the caller holds
 * the request's row lock, as every answer does.
 */
export async function answerMatch(
  db: Db,
  input: {
    matchId: string;
    response: 'accepted' | 'declined' | 'withdrawn';
    at: Date;
    activity: NewActivityLogRow;
  },
): Promise<(BloodRequestMatchRow & { accepted: number }) | undefined> {
  const [found] = (await answerStatement(db, {
    matchId: input.matchId,
    response: input.response,
    respondedAt: input.at,
    ...(input.response === 'withdrawn' ? { from: 'accepted' } : {}),
    ...trailValues({ activity: [input.activity] }),
  })) as (BloodRequestMatchRow & { acceptedBefore: number })[];
  if (!found) return undefined;
  const { acceptedBefore, ...row } = found;
  const change = input.response === 'accepted' ? 1 : input.response === 'withdrawn' ? -1 : 0;
  return { ...row, accepted: Number(acceptedBefore) + change };
}
