import { evaluateEligibility, nextEligibleAfterDonation, selectionDeferral } from '@bdms/shared';
import type { Db } from '../../db/client';
import type { BloodRequestRow } from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import type { RequestMeta } from '../../lib/request-context';
import type { AuthUser } from '../../plugins/auth';
import type { Notifier, NotifyInput } from '../notifications/notifier';
import { createBloodRequestsRepository } from './blood-requests.repository';
import type { DonorSelectionFacts } from './request-statements';

/**
 * A donor's or a hospital's standing and the requests it touches (issue #32): whether a donor
 * may accept at this moment, what a suspension or an erasure does to a donor's matches, and
 * which hospital hears of the requests naming a facility once a registration is decided.
 */

/**
 * Issue #32 item 2: accepting re-checks, at that moment, what the matcher checked when the donor
 * was told (matching.ts `selectionDeferral`: the donation interval, every deferral of the
 * answers evaluated now, a review on hold, age; Drugs and Cosmetics Rules Schedule F Part XII-B,
 * NBTC 2017). A donor told last week who felt unwell today, declared a permanent condition or
 * gave blood this morning is refused, with the reason and the date they may give again
 * (`evaluateEligibility`'s, or the end of the interval), when one is known. Only an approved
 * donor may accept.
 */
export function assertMayGiveNow(donor: DonorSelectionFacts, at: number): void {
  const reason = donor.status === 'approved' ? selectionDeferral(donor, at) : 'deferred';
  if (!reason) return;
  // The answers give the latest end of every running deferral and of the interval; without
  // them (or held by a review) only the interval's end is known. A date already past (the
  // interval when "unwell" is what defers) or none (a permanent deferral) is not named.
  let next: string | null = null;
  if (donor.status === 'approved' && donor.questionnaire && !donor.questionnaire.onHold) {
    next = evaluateEligibility({
      dateOfBirth: donor.dateOfBirth,
      gender: donor.gender,
      answers: donor.questionnaire.answers,
      lastDonationAt: donor.lastDonationAt,
      now: new Date(at),
    }).nextEligibleAt;
  } else if (reason === 'donation_interval' && donor.lastDonationAt) {
    next = nextEligibleAfterDonation(donor.lastDonationAt, donor.gender).toISOString();
  }
  const nextEligibleAt = next && new Date(next).getTime() > at ? next : null;
  throw new AppError(
    'DONOR_NOT_ELIGIBLE',
    'You cannot give blood at the moment, so you cannot accept this request. Your eligibility shows why and when you can give again.',
    { reason, nextEligibleAt },
  );
}

export interface DonorStandingDeps {
  notifier: Pick<Notifier, 'notifyMany'>;
  now: () => number;
}

export function createDonorStanding(deps: DonorStandingDeps) {
  const { notifier, now } = deps;
  return {
    /**
     * Issue #32 item 6: a donor suspended by an administrator or erased (composed into those
     * features in services.ts, inside their transaction). Their open matches are voided: the
     * alerts they have not answered become `declined` (a later YES by SMS or WhatsApp finds
     * nothing to accept), and where they accepted and have not given, on an open request, the
     * acceptance becomes `withdrawn`: they leave the accepted count, the hospital's list of
     * donors coming and a guest's tracking page, and the registered requester and the hospital
     * are told as for a withdrawal. The caller kicks the notifier after commit.
     */
    async voidDonorMatches(
      tx: Db,
      donorId: string,
      why: 'suspended' | 'erased',
      caller: AuthUser,
      meta: Pick<RequestMeta, 'requestId'>,
    ): Promise<{ unanswered: number; accepted: number }> {
      const repo = createBloodRequestsRepository(tx);
      const at = new Date(now());
      await repo.lockDonorRow(donorId);
      const changed = await repo.voidOpenMatchesOf(donorId, at);
      const voided = {
        unanswered: changed.filter((row) => row.response === 'declined').length,
        accepted: changed.filter((row) => row.response === 'withdrawn').length,
      };
      if (changed.length === 0) return voided;
      // The requests whose accepted count dropped (read, not locked: see voidOpenMatchesOf).
      const rows: BloodRequestRow[] = [];
      for (const { requestId, response } of changed) {
        if (response !== 'withdrawn') continue;
        const row = await repo.findById(requestId);
        if (row) rows.push(row);
      }
      const counts = await repo.matchCountsFor(rows.map((row) => row.id));
      const told: { userId: string; input: NotifyInput }[] = [];
      for (const row of rows) {
        const people = new Set<string>();
        if (row.createdBy && row.createdBy !== donorId) people.add(row.createdBy);
        if (row.hospitalId)
          for (const userId of await repo.hospitalUserIds(row.hospitalId)) people.add(userId);
        const input: NotifyInput = {
          type: 'blood_request.donor_withdrew',
          params: {
            count: String(counts.get(row.id)?.accepted ?? 0),
            code: row.trackingCode,
            hospital: row.hospitalName,
          },
          link: '/dashboard',
          reachOut: true,
        };
        for (const userId of people) told.push({ userId, input });
      }
      if (told.length > 0) await notifier.notifyMany(tx, told);
      await createActivityLog(tx).record({
        action: 'blood_request.matches_voided',
        actorId: caller.id === donorId ? null : caller.id,
        actorRole: caller.role,
        targetType: 'user',
        targetId: donorId,
        details: { why, ...voided },
        requestId: meta.requestId,
      });
      return voided;
    },

    /**
     * Issue #32 item 14: after a hospital of `facilityId` was verified, rejected, disabled or
     * enabled (the hospitals feature calls this in its transaction, composed in services.ts),
     * the open requests naming the facility point at the hospital that now speaks for it (the
     * oldest verified, enabled one, or none), and that hospital's accounts are told of those
     * still awaiting verification, as they would have been at creation. Returns how many moved;
     * the caller kicks the notifier after committing.
     */
    async repointFacility(tx: Db, facilityId: string): Promise<number> {
      const repo = createBloodRequestsRepository(tx);
      const hospitalId = await repo.hospitalForFacility(facilityId);
      const moved = await repo.repointFacilityRequests(facilityId, hospitalId);
      const userIds = hospitalId ? await repo.hospitalUserIds(hospitalId) : [];
      const recipients = moved
        .filter((row) => row.status === 'pending')
        .flatMap((row) => {
          const input: NotifyInput = {
            type: 'blood_request.awaiting_verification',
            params: {
              units: String(row.unitsNeeded),
              bloodType: row.bloodType,
              hospital: row.hospitalName,
              city: row.city,
            },
            link: '/hospital/dashboard',
          };
          return userIds.map((userId) => ({ userId, input }));
        });
      if (recipients.length > 0) await notifier.notifyMany(tx, recipients);
      return moved.length;
    },
  };
}
