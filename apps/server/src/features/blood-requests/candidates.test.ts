import {
  BLOOD_TYPES,
  boundingBox,
  compatibleDonorTypes,
  haversineKm,
  isRankingSettled,
  rankCandidates,
  type BloodType,
  type MatchSettings,
} from '@bdms/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bloodRequestMatches, bloodRequests, questionnaires, users } from '../../db/schema';
import { HYDERABAD } from '../../test/blood-request-helpers';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import {
  createBloodRequestsRepository,
  FIRST_CANDIDATE_PAGE,
  hospitalNameKey,
  type CandidateQuery,
  type CandidateRow,
} from './blood-requests.repository';

/**
 * `findCandidates` with `enough` reads the circle a page at a time in the ranking's order; the
 * round must tell exactly the donors it would tell after reading every candidate.
 */

const DAY = 86_400_000;
const now = Date.now();
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterEach(async () => {
  await testDb.truncate();
});

afterAll(async () => {
  await testDb?.close();
});

const db = () => testDb.database.db;

let seed = 7;
/** mulberry32: the same donors on every run. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

let requestSequence = 0;
async function insertRequest(bloodType: BloodType): Promise<string> {
  requestSequence += 1;
  const [row] = await db()
    .insert(bloodRequests)
    .values({
      trackingCode: `C${String(requestSequence).padStart(7, '0')}`,
      status: 'verified',
      urgency: 'critical',
      bloodType,
      unitsNeeded: 2,
      hospitalName: 'Gandhi Hospital',
      hospitalNameKey: hospitalNameKey('Gandhi Hospital'),
      city: 'Secunderabad',
      state: 'Telangana',
      ...HYDERABAD,
      locationSource: 'given',
      contactName: 'Ravi Kumar',
      contactPhone: `+9197${String(10_000_000 + requestSequence)}`,
      expiresAt: new Date(now + 3 * DAY),
      createdByRole: 'guest',
    })
    .returning({ id: bloodRequests.id });
  return row!.id;
}

/**
 * `count` approved, available donors within 24 km of Hyderabad (or all at `samePoint`), of
 * random types; a third of them with something the ranking excludes them for: a deferral, a
 * lapsed availability, a recent donation by a woman, two alerts this week, or already told.
 */
async function seedDonors(
  count: number,
  options: { samePoint?: boolean; earlierRequest: string; thisRequest: string },
): Promise<void> {
  const rows: (typeof users.$inferInsert)[] = [];
  for (let i = 0; i < count; i += 1) {
    const km = random() * 24;
    const angle = random() * 2 * Math.PI;
    const point = options.samePoint
      ? { latitude: HYDERABAD.latitude + 0.05, longitude: HYDERABAD.longitude }
      : {
          latitude: HYDERABAD.latitude + (km / 111.195) * Math.sin(angle),
          longitude:
            HYDERABAD.longitude +
            ((km / 111.195) * Math.cos(angle)) / Math.cos((HYDERABAD.latitude * Math.PI) / 180),
        };
    const gender = random() < 0.6 ? 'male' : 'female';
    rows.push({
      email: `candidate-${requestSequence}-${i}@example.org`,
      passwordHash: '!test',
      role: 'donor',
      status: 'approved',
      fullName: `Donor ${i}`,
      bloodType: BLOOD_TYPES[Math.floor(random() * BLOOD_TYPES.length)],
      gender,
      ...point,
      available: true,
      // One in ten confirmed longer ago than availability lasts (lapsed).
      availabilityConfirmedAt: new Date(now - (random() < 0.1 ? 120 : 10) * DAY),
      // One in ten gave 100 days ago: past the interval for men, not for women.
      lastDonationAt: random() < 0.1 ? new Date(now - 100 * DAY) : null,
    });
  }
  const inserted = await db().insert(users).values(rows).returning({ id: users.id });
  const deferred: (typeof questionnaires.$inferInsert)[] = [];
  const told: (typeof bloodRequestMatches.$inferInsert)[] = [];
  for (const { id } of inserted) {
    const r = random();
    if (r < 0.2) {
      // Deferred by the answers themselves: the ranking decides from them at matching time.
      const tattooDay = new Date(now - 335 * DAY).toISOString().slice(0, 10);
      deferred.push({
        userId: id,
        answers: {
          weightKg: 70,
          firstTimeDonor: false,
          feelsWell: true,
          ...(r < 0.1
            ? { conditions: ['tattoo_piercing'], conditionDates: { tattoo_piercing: tattooDay } }
            : r < 0.15
              ? { conditions: ['cold_flu'] }
              : { conditions: ['hiv'] }),
        },
        eligible: false,
        nextEligibleAt: null,
        deferrals: [],
        submittedAt: new Date(now - 5 * DAY),
      });
    } else if (r < 0.27) {
      // Two alerts this week (the fairness cap) from the earlier request.
      told.push({
        requestId: options.earlierRequest,
        donorId: id,
        exactType: true,
        round: 1,
        notifiedAt: new Date(now - 2 * DAY),
      });
    } else if (r < 0.32) {
      told.push({
        requestId: options.thisRequest,
        donorId: id,
        exactType: true,
        round: 1,
        notifiedAt: new Date(now - 3_600_000),
      });
    }
  }
  if (deferred.length) await db().insert(questionnaires).values(deferred);
  if (told.length) await db().insert(bloodRequestMatches).values(told);
  // The fairness cap is two alerts: give the capped donors a second one.
  const second = told.filter((row) => row.requestId === options.earlierRequest);
  if (second.length) {
    const other = await insertRequest('O+');
    await db()
      .insert(bloodRequestMatches)
      .values(second.map((row) => ({ ...row, requestId: other })));
  }
}

function candidateQuery(requestId: string, bloodType: BloodType): CandidateQuery {
  return {
    requestId,
    ...HYDERABAD,
    radiusKm: 25,
    box: boundingBox(HYDERABAD, 25),
    donorTypes: compatibleDonorTypes(bloodType),
    lastDonationBy: new Date(now - 90 * DAY),
    alertsSince: new Date(now - 7 * DAY),
  };
}

function rank(rows: CandidateRow[], bloodType: BloodType, maxDonorsPerRequest: number) {
  return rankCandidates(rows, { ...HYDERABAD, bloodType }, now, {
    radiusKm: 25,
    maxDonorsPerRequest,
    maxAlertsPerDonorPer7d: 2,
  });
}

describe('candidates a page at a time', () => {
  it('tells the same donors as reading every candidate, reading fewer rows', async () => {
    const earlier = await insertRequest('B+');
    const requestId = await insertRequest('AB+');
    await seedDonors(700, { earlierRequest: earlier, thisRequest: requestId });
    const repo = createBloodRequestsRepository(db());

    for (const bloodType of ['AB+', 'A+', 'O-'] as BloodType[]) {
      const query = candidateQuery(requestId, bloodType);
      const all = await repo.findCandidates(query);
      // The rows carry the answers, and the ranking decides from them: no deferred donor is told.
      const deferredIds = all
        .filter((row) => row.questionnaire?.answers.conditions.length)
        .map((row) => row.id);
      expect(deferredIds.length).toBeGreaterThan(0);
      const told = new Set(rank(all, bloodType, 10_000).map((row) => row.id));
      expect(deferredIds.filter((id) => told.has(id))).toEqual([]);
      // Exact type first, then the nearest: the ranking's own order.
      const keys = all.map((row) => [
        row.bloodType === bloodType ? 0 : 1,
        haversineKm(HYDERABAD, row),
      ]);
      for (let i = 1; i < keys.length; i += 1) {
        const [a, b] = [keys[i - 1]!, keys[i]!];
        expect(a[0]! < b[0]! || (a[0] === b[0] && a[1]! <= b[1]! + 1e-9)).toBe(true);
      }
      for (const max of [1, 20, 150, 200]) {
        const read = await repo.findCandidates(
          query,
          (rows) => rank(rows, bloodType, max).length >= max,
        );
        expect(rank(read, bloodType, max), `${bloodType}, ${max} donors`).toEqual(
          rank(all, bloodType, max),
        );
        if (all.length > FIRST_CANDIDATE_PAGE && max <= 20) {
          expect(read.length).toBe(FIRST_CANDIDATE_PAGE);
        }
      }
    }
    // AB+ receives from every type: hundreds in the circle, so 150 and 200 needed more pages.
    expect((await repo.findCandidates(candidateQuery(requestId, 'AB+'))).length).toBeGreaterThan(
      4 * FIRST_CANDIDATE_PAGE,
    );
  });

  it('likelyToAnswer (advancedMatching): the pages tell the same donors as reading every candidate', async () => {
    const earlier = await insertRequest('B+');
    const requestId = await insertRequest('AB+');
    await seedDonors(700, { earlierRequest: earlier, thisRequest: requestId });
    // A month-old history of answers for about half the donors: yes, no, or none.
    const donors = await db().select({ id: users.id }).from(users).where(eq(users.role, 'donor'));
    const past = [await insertRequest('O+'), await insertRequest('O+'), await insertRequest('O+')];
    const history: (typeof bloodRequestMatches.$inferInsert)[] = [];
    for (const { id } of donors) {
      if (random() < 0.5) continue;
      for (const pastId of past) {
        const r = random();
        history.push({
          requestId: pastId,
          donorId: id,
          exactType: false,
          round: 1,
          notifiedAt: new Date(now - 30 * DAY),
          response: r < 0.3 ? 'accepted' : r < 0.6 ? 'declined' : null,
        });
      }
    }
    await db().insert(bloodRequestMatches).values(history);
    const repo = createBloodRequestsRepository(db());
    for (const bloodType of ['AB+', 'A+', 'O-'] as BloodType[]) {
      const query = {
        ...candidateQuery(requestId, bloodType),
        responses: { since: new Date(now - 365 * DAY), answeredBy: new Date(now - 2 * DAY) },
      };
      const all = await repo.findCandidates(query);
      expect(all.some((row) => (row.responses?.asked ?? 0) > 0)).toBe(true);
      const request = { ...HYDERABAD, bloodType };
      for (const max of [1, 20, 150]) {
        const settings: MatchSettings = {
          radiusKm: 25,
          maxDonorsPerRequest: max,
          maxAlertsPerDonorPer7d: 2,
          ranking: 'likelyToAnswer',
        };
        const read = await repo.findCandidates(query, (rows) =>
          isRankingSettled(rows, request, now, settings),
        );
        const expected = rankCandidates(all, request, now, settings);
        expect(rankCandidates(read, request, now, settings), `${bloodType}, ${max}`).toEqual(
          expected,
        );
        // The ranking is not the distance order: a likelier donor farther off comes first.
        if (max === 150 && bloodType === 'AB+') {
          const distances = expected.map((row) => row.distanceKm);
          expect(distances).not.toEqual([...distances].sort((a, b) => a - b));
        }
      }
    }
  });

  it('continues a page after donors at the same distance, by id', async () => {
    const earlier = await insertRequest('B+');
    const requestId = await insertRequest('AB+');
    await seedDonors(260, { samePoint: true, earlierRequest: earlier, thisRequest: requestId });
    const repo = createBloodRequestsRepository(db());
    const query = candidateQuery(requestId, 'AB+');
    const all = await repo.findCandidates(query);
    const read = await repo.findCandidates(query, () => false);
    expect(read.map((row) => row.id)).toEqual(all.map((row) => row.id));
    expect(new Set(read.map((row) => row.id)).size).toBe(read.length);
    for (const max of [20, 150]) {
      const paged = await repo.findCandidates(
        query,
        (rows) => rank(rows, 'AB+', max).length >= max,
      );
      expect(rank(paged, 'AB+', max)).toEqual(rank(all, 'AB+', max));
    }
  });
});
