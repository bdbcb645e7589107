import { randomBytes } from 'node:crypto';
import {
  birthdayAt,
  DONOR_MIN_AGE,
  donationIntervalDays,
  indianDate,
  nextEligibleAfterDonation,
  todayInIndia,
  type Donation,
  type DonationPage,
  type DonorStats,
  type RecordDonation,
  type ReportDonation,
} from '@bdms/shared';
import type { Db } from '../../db/client';
import type { DonationRow, UserRow } from '../../db/schema';
import { assertSelf, assertSelfOrAdmin } from '../../lib/access';
import {
  hasAccepted,
  hospitalNameKey,
  hospitalOfUser,
  isRequestOfHospital,
  linkDonationToRequest,
} from '../../lib/blood-request-links';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import { currentEligibility, refreshLastDonation } from '../../lib/donor-facts';
import { callerFactsOf, createDonorReads, type UserWithFacts } from '../../lib/donor-reads';
import { fingerprint, type Idempotency } from '../../lib/idempotency';
import type { Notifier } from '../notifications/notifier';
import { localDate } from '../notifications/templates';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser, CallerFacts, SelfLoader } from '../../plugins/auth';
import { createDonationPages, createDonationsRepository } from './donations.repository';

/** Each whole-blood unit is split into red cells, plasma and platelets: up to three patients. */
export const LIVES_PER_UNIT = 3;
export const REPORT_ROUTE_KEY = 'POST /api/v1/users/{id}/donations';
export const RECORD_ROUTE_KEY = 'POST /api/v1/donations';

// Crockford's base32: no I, L, O or U, so a number read aloud or typed is not mistaken.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `BDMS-YYYY-XXXXXXXX`: the year of the donation and 40 random bits. */
export function generateCertificateNumber(donatedAt: Date): string {
  const bytes = randomBytes(5);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 0; i < 8; i += 1) {
    code = BASE32[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  // The year of the donation's Indian day (issue #32 item 3): 00:30 IST on 1 January is the new year.
  return `BDMS-${indianDate(donatedAt).slice(0, 4)}-${code}`;
}

export function toDonationView(row: DonationRow): Donation {
  return {
    id: row.id,
    donatedAt: row.donatedAt.toISOString(),
    units: row.units,
    place: row.place,
    facilityId: row.facilityId,
    requestId: row.requestId,
    verified: row.verified,
    certificateAvailable: row.verified && row.certificateNumber !== null,
    certificateNumber: row.certificateNumber,
    walkIn: row.walkIn,
  };
}

export interface DonationsServiceDeps {
  db: Db;
  notifier: Pick<Notifier, 'notify' | 'kick'>;
  idempotency: Idempotency;
  config: { jwtSecret: string };
  now?: () => number;
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path, message }]);
const userNotFound = () => new AppError('NOT_FOUND', 'There is no user with this id.');

/** A YYYY-MM-DD is midnight UTC; a date-time is taken as given. */
/** A donation given as a date alone is stored at that day's UTC midnight (see parseDonatedAt). */
const isDateOnly = (value: Date) => value.getTime() % 86_400_000 === 0;

function parseDonatedAt(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
}

/**
 * Whether a donation came before the donor's 18th birthday (Schedule F XII-B 1.A: from 18), on
 * the Indian calendar (issue #32 item 3): the birthday starts at 00:00 IST, when the UTC date is
 * still the day before. A date alone (stored at its UTC midnight) is its own Indian day.
 */
function isBeforeEighteenth(dateOfBirth: string, donatedAt: Date): boolean {
  return indianDate(donatedAt) < birthdayAt(dateOfBirth, DONOR_MIN_AGE);
}

/**
 * Issue #32 item 17: a verified donation inside the donor's interval from another of their
 * donations (before or after it: a late entry counts too) is refused. Whole blood: 90 days for
 * men, 120 for women (Drugs and Cosmetics Rules, Schedule F Part XII-B; NBTC 2017), the shared
 * `nextEligibleAfterDonation`, counted in Indian days.
 */
async function assertOutsideInterval(
  repository: ReturnType<typeof createDonationsRepository>,
  donor: Pick<UserRow, 'id' | 'gender'>,
  donatedAt: Date,
): Promise<void> {
  // The widest interval and a day either side: every donation that could clash, few rows.
  const span = (donationIntervalDays(donor.gender) + 1) * 86_400_000;
  const near = await repository.donationsBetween(
    donor.id,
    new Date(donatedAt.getTime() - span),
    new Date(donatedAt.getTime() + span),
  );
  const clash = near.find((other) =>
    other.donatedAt.getTime() <= donatedAt.getTime()
      ? donatedAt < nextEligibleAfterDonation(other.donatedAt, donor.gender)
      : other.donatedAt < nextEligibleAfterDonation(donatedAt, donor.gender),
  );
  if (!clash) return;
  const days = donationIntervalDays(donor.gender);
  const on = indianDate(clash.donatedAt);
  // After an earlier donation, the first day allowed; before a later one, the gap alone.
  const next =
    clash.donatedAt.getTime() <= donatedAt.getTime()
      ? `, so the next may be recorded from ${indianDate(nextEligibleAfterDonation(clash.donatedAt, donor.gender))}`
      : '';
  throw new AppError(
    'DONOR_NOT_ELIGIBLE',
    `This donor already has a donation on ${on} (${clash.place}). Whole-blood donations must be ` +
      `${days} days apart${next} (Drugs and Cosmetics Rules, Schedule F Part XII-B). Nothing was ` +
      'recorded; if the other donation is wrong, ask an administrator to correct it.',
    [{ path: 'body.donatedAt', message: `Less than ${days} days from the donation on ${on}.` }],
  );
}

export function createDonationsService(deps: DonationsServiceDeps) {
  const { db, notifier } = deps;
  const now = deps.now ?? Date.now;
  const repository = createDonationsRepository(db);
  const reads = createDonorReads(db);
  const pages = createDonationPages(db);

  async function loadUser(caller: AuthUser, id: string): Promise<UserRow> {
    assertSelfOrAdmin(caller, id);
    const user = await repository.findUser(id);
    if (!user || user.deletedAt) throw userNotFound();
    return user;
  }

  /** Not in the future, not before the donor could give (18th birthday). */
  function checkDate(donor: UserRow, donatedAt: Date, path: string): void {
    // A date alone is an Indian date: today's is fine from 00:00 IST, though its UTC midnight
    // (how it is stored) is still ahead of the clock until 05:30 IST.
    const isFuture = isDateOnly(donatedAt)
      ? indianDate(donatedAt) > todayInIndia(now())
      : donatedAt.getTime() > now();
    if (isFuture) throw invalid(path, 'The donation date is in the future.');
    if (donor.dateOfBirth && isBeforeEighteenth(donor.dateOfBirth, donatedAt)) {
      throw invalid(path, `The donation date is before the donor turned ${DONOR_MIN_AGE}.`);
    }
  }

  /** Runs `work` once per X-Request-ID when the client sent one (API.md "Conventions"). */
  async function once<T>(
    meta: RequestMeta,
    route: string,
    body: unknown,
    work: (tx: Db) => Promise<T>,
  ): Promise<{ result: T; replayed: boolean }> {
    if (!meta.idempotencyKey) return { result: await db.transaction(work), replayed: false };
    const reply = await deps.idempotency.run(
      { key: meta.idempotencyKey, route, requestHash: fingerprint(body, deps.config.jwtSecret) },
      async (tx) => ({ statusCode: 201, body: await work(tx) }),
    );
    return { result: reply.body as T, replayed: reply.replayed };
  }

  function statsOf({ user, facts, acceptedRequests }: UserWithFacts): DonorStats {
    const eligibility = currentEligibility(user, facts.questionnaire, now());
    return {
      totalDonations: facts.totalDonations,
      lastDonationAt: user.lastDonationAt?.toISOString() ?? null,
      nextEligibleAt: eligibility?.nextEligibleAt ?? null,
      livesImpacted: LIVES_PER_UNIT * facts.verifiedUnits,
      requestsResponded: acceptedRequests,
    };
  }

  return {
    async list(
      caller: AuthUser,
      id: string,
      page: number,
      pageSize: number,
    ): Promise<DonationPage> {
      assertSelfOrAdmin(caller, id);
      // One statement: the account's existence, the page and the total.
      const found = await pages.ofUser(id, page, pageSize);
      if (!found || found.caller.deletedAt) throw userNotFound();
      return { items: found.items.map(toDonationView), total: found.total, page, pageSize };
    },

    /** A donor's own page, read with their caller facts (`app.authenticateSelf`, issue #20). */
    selfList(page: number, pageSize: number): SelfLoader<DonationPage> {
      return async (id) => {
        const found = await pages.ofUser(id, page, pageSize);
        if (!found) return undefined;
        const items = found.items.map(toDonationView);
        return { caller: found.caller, value: { items, total: found.total, page, pageSize } };
      };
    },

    /**
     * A donation the donor made elsewhere (unverified). It moves their last donation, so they
     * are hidden from matching for their interval (90 days for men, 120 for women).
     */
    async report(
      caller: AuthUser,
      id: string,
      body: ReportDonation,
      meta: RequestMeta,
    ): Promise<{ donation: Donation; replayed: boolean }> {
      assertSelf(caller, id, 'You can only report your own donations.');
      const donor = await loadUser(caller, id);
      if (donor.role !== 'donor') throw new AppError('FORBIDDEN', 'Only donors report donations.');
      const donatedAt = parseDonatedAt(body.donatedAt);
      checkDate(donor, donatedAt, 'body.donatedAt');
      const { result, replayed } = await once(
        meta,
        `${REPORT_ROUTE_KEY}:${id}`,
        body,
        async (tx) => {
          const row = await createDonationsRepository(tx).insert({
            donorId: id,
            donatedAt,
            units: 1,
            place: body.place,
            verified: false,
            bloodType: donor.bloodType,
            createdAt: new Date(now()),
          });
          await refreshLastDonation(tx, id);
          await createActivityLog(tx).record({
            action: 'donation.reported',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'user',
            targetId: id,
            details: { donationId: row.id },
            requestId: meta.requestId,
          });
          return toDonationView(row);
        },
      );
      return { donation: result, replayed };
    },

    /** A verified donation, recorded by a hospital or an administrator, with a certificate. */
    async record(
      caller: AuthUser,
      body: RecordDonation,
      meta: RequestMeta,
    ): Promise<{ donation: Donation; replayed: boolean }> {
      const donor = await repository.findUser(body.donorId);
      if (!donor || donor.deletedAt || donor.role !== 'donor') {
        throw new AppError('NOT_FOUND', 'There is no donor with this id.');
      }
      const donatedAt = parseDonatedAt(body.donatedAt);
      checkDate(donor, donatedAt, 'body.donatedAt');
      // A hospital records donations for its own requests only, never against another
      // hospital's; a donor who had not accepted the request (or no request) is a walk-in,
      // recorded as such for administrators to see.
      if (
        caller.role === 'hospital' &&
        body.requestId &&
        !(await isRequestOfHospital(db, body.requestId, caller.id))
      ) {
        throw new AppError(
          'FORBIDDEN',
          'This blood request is not one of your hospital’s: record the donation without it (a walk-in) or ask an administrator.',
        );
      }
      const walkIn = !body.requestId || !(await hasAccepted(db, body.requestId, donor.id));
      let place = body.place;
      let facilityId = body.facilityId ?? null;
      if (caller.role === 'hospital') {
        // Issue #32 item 17: a hospital records what happened at its own facility: the place is
        // its organisation's name (the account's name without one) and the facility its own.
        // Elsewhere (a camp, another centre) is for an administrator to record.
        const hospital = await hospitalOfUser(db, caller.id);
        const own = hospital?.name ?? (await repository.findUser(caller.id))?.fullName;
        const ownFacility = hospital?.facilityId ?? null;
        if (
          (body.place && own && hospitalNameKey(body.place) !== hospitalNameKey(own)) ||
          (body.facilityId && body.facilityId !== ownFacility)
        ) {
          throw new AppError(
            'FORBIDDEN',
            `A hospital records donations made at its own facility (${own ?? 'your hospital'}) only: leave out place and facilityId, or ask an administrator to record a donation made elsewhere.`,
          );
        }
        place = own;
        facilityId = ownFacility;
      }
      if (!place) throw invalid('body.place', 'Say where the donation took place.');
      const where = place;
      const work = async (tx: Db) => {
        // 40 random bits: a clash is rare, but the unique index has the last word.
        for (let attempt = 0; ; attempt += 1) {
          try {
            return await tx.transaction(async (inner) => {
              const innerRepository = createDonationsRepository(inner);
              // Under the donor's row lock: two hospitals recording at once see each other.
              await innerRepository.lockDonor(donor.id);
              await assertOutsideInterval(innerRepository, donor, donatedAt);
              const row = await innerRepository.insert({
                donorId: donor.id,
                donatedAt,
                units: body.units,
                place: where,
                facilityId,
                requestId: body.requestId ?? null,
                verified: true,
                verifiedBy: caller.id,
                walkIn,
                certificateNumber: generateCertificateNumber(donatedAt),
                bloodType: donor.bloodType,
                createdAt: new Date(now()),
              });
              await refreshLastDonation(inner, donor.id);
              if (body.requestId) {
                // The donor's match for the request records the donation (the hospital's list
                // and the tracking page show it); an unknown request is 404.
                await linkDonationToRequest(inner, {
                  requestId: body.requestId,
                  donorId: donor.id,
                  donationId: row.id,
                  donatedAt,
                  at: new Date(now()),
                });
              }
              await createActivityLog(inner).record({
                action: 'donation.recorded',
                actorId: caller.id,
                actorRole: caller.role,
                targetType: 'user',
                targetId: donor.id,
                details: { donationId: row.id, units: row.units, walkIn, requestId: row.requestId },
                requestId: meta.requestId,
              });
              await notifier.notify(inner, donor.id, {
                type: 'donation.recorded',
                params: { date: localDate(donatedAt), place: where },
                link: '/dashboard',
              });
              return toDonationView(row);
            });
          } catch (error) {
            if (attempt < 3 && uniqueViolation(error)?.includes('certificate')) continue;
            throw error;
          }
        }
      };
      const { result, replayed } = await once(meta, RECORD_ROUTE_KEY, body, work);
      notifier.kick();
      return { donation: result, replayed };
    },

    /**
     * Totals for the dashboard. `livesImpacted` is LIVES_PER_UNIT × verified units (reported
     * donations are not counted there); `requestsResponded` counts the blood requests accepted.
     */
    async stats(caller: AuthUser, id: string): Promise<DonorStats> {
      assertSelfOrAdmin(caller, id);
      // One statement: the row, its facts and the accepted requests (lib/donor-reads.ts).
      const found = await reads.userWithFacts(id);
      if (!found || found.user.deletedAt) throw userNotFound();
      return statsOf(found);
    },

    /**
     * A donor's own stats with what authenticates them, in that one statement
     * (`app.authenticateSelf`: the dashboard's call costs one round trip, issue #20).
     */
    async selfStats(id: string): Promise<{ caller: CallerFacts; value: DonorStats } | undefined> {
      const found = await reads.userWithFacts(id);
      if (!found) return undefined;
      return { caller: callerFactsOf(found.user, found.hospital), value: statsOf(found) };
    },
  };
}

export type DonationsService = ReturnType<typeof createDonationsService>;
