import { randomInt } from 'node:crypto';
import {
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_MILESTONES,
  type AdminReferrals,
  type MyReferrals,
} from '@bdms/shared';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import type { AuthUser } from '../../plugins/auth';
import type { FlagsService } from '../flags/flags.service';
import { referralShareText } from './referral-texts';
import { createReferralsRepository } from './referrals.repository';

export interface ReferralsServiceDeps {
  db: Db;
  flags: Pick<FlagsService, 'getFlags'>;
  config: Pick<Config, 'publicUrl'>;
}

export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i += 1) {
    code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  }
  return code;
}

const num = (value: number | string | null | undefined) => Number(value ?? 0);
const iso = (value: Date | string) => new Date(value).toISOString();

export function createReferralsService(deps: ReferralsServiceDeps) {
  const repo = createReferralsRepository(deps.db);

  async function ensureEnabled(): Promise<void> {
    if (!(await deps.flags.getFlags()).referralSystem) {
      throw new AppError(
        'NOT_FOUND',
        'Invitations are switched off on this server (feature flag referralSystem).',
      );
    }
  }

  /** The donor's code, made on first use (a collision, one in 10^11, is retried). */
  async function codeOf(userId: string): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await repo.findCode(userId);
      if (current) return current;
      try {
        await repo.setCodeIfNone(userId, newReferralCode());
      } catch (error) {
        if (!uniqueViolation(error)) throw error;
      }
    }
    throw new Error('no referral code after 5 attempts');
  }

  return {
    /** `GET /referrals/me`: the donor's code, share texts, counts, badges, consenting friends. */
    async mine(caller: AuthUser, language: string | undefined): Promise<MyReferrals> {
      await ensureEnabled();
      const code = await codeOf(caller.id);
      const counts = await repo.inviteeCounts(caller.id);
      const friends = await repo.sharedInvitees(caller.id);
      const link = `${deps.config.publicUrl}/register?ref=${code}`;
      const shareText = referralShareText(language, link, code);
      return {
        code,
        link,
        shareText,
        whatsappUrl: `https://wa.me/?text=${encodeURIComponent(shareText)}`,
        joined: counts.joined,
        donated: counts.donated,
        // Issue #32 item 20: a badge counts only invitees an administrator approved and that
        // are not erased; a registration alone (pending, rejected, suspended) earns nothing.
        milestones: REFERRAL_MILESTONES.map((count) => ({
          joined: count,
          reached: counts.approved >= count,
        })),
        friends: friends.map((row) => ({
          firstName: row.full_name.trim().split(/\s+/)[0] ?? '',
          joinedAt: iso(row.created_at),
          donated: Boolean(row.donated),
        })),
      };
    },

    /** `GET /admin/referrals`: counts, the top referrers, and addresses with many accounts. */
    async overview(): Promise<AdminReferrals> {
      await ensureEnabled();
      const totals = await repo.totals();
      const top = await repo.topReferrers();
      const clusters = await repo.addressClusters();
      const members = await repo.clusterMembers(clusters.map((cluster) => cluster.hash));
      return {
        totals: {
          referred: num(totals?.referred),
          donated: num(totals?.donated),
          referrers: num(totals?.referrers),
        },
        topReferrers: top.map((row) => ({
          id: row.id,
          name: row.full_name,
          joined: num(row.joined),
          donated: num(row.donated),
        })),
        clusters: clusters.map((cluster) => ({
          // A short, stable label: the hash is keyed, so it reveals nothing of the address.
          key: cluster.hash.slice(0, 8),
          accounts: num(cluster.accounts),
          referred: num(cluster.referred),
          firstAt: iso(cluster.first_at),
          lastAt: iso(cluster.last_at),
          members: members
            .filter((member) => member.hash === cluster.hash)
            .map((member) => ({
              id: member.id,
              name: member.full_name,
              createdAt: iso(member.created_at),
              referrerName: member.referrer_name,
            })),
        })),
      };
    },
  };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
