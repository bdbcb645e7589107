import { randomInt } from 'node:crypto';
import {
  REFERRAL_CLUSTER_MIN_ACCOUNTS,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_MILESTONES,
  type AdminReferrals,
  type MyReferrals,
} from '@bdms/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config/env';
import { executeRows, type Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import type { AuthUser } from '../../plugins/auth';
import type { FlagsService } from '../flags/flags.service';
import { referralShareText } from './referral-texts';

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
  const { db } = deps;

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
      const [current] = await db
        .select({ code: users.referralCode })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (current?.code) return current.code;
      try {
        // Only if still none: two first visits at once end with one code.
        await db
          .update(users)
          .set({ referralCode: newReferralCode() })
          .where(and(eq(users.id, userId), isNull(users.referralCode)));
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
      const [counts] = await executeRows<{ joined: number | string; donated: number | string }>(
        db,
        sql`
          select count(*)::int as joined,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated
          from users u where u.referred_by = ${caller.id}`,
      );
      const friends = await executeRows<{
        full_name: string;
        created_at: Date | string;
        donated: boolean;
      }>(
        db,
        sql`
          select u.full_name, u.created_at,
            exists (select 1 from donations d where d.donor_id = u.id) as donated
          from users u
          where u.referred_by = ${caller.id} and u.referral_shared and u.deleted_at is null
          order by u.created_at desc
          limit 50`,
      );
      const joined = num(counts?.joined);
      const link = `${deps.config.publicUrl}/register?ref=${code}`;
      const shareText = referralShareText(language, link, code);
      return {
        code,
        link,
        shareText,
        whatsappUrl: `https://wa.me/?text=${encodeURIComponent(shareText)}`,
        joined,
        donated: num(counts?.donated),
        milestones: REFERRAL_MILESTONES.map((count) => ({
          joined: count,
          reached: joined >= count,
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
      const [totals] = await executeRows<{
        referred: number | string;
        donated: number | string;
        referrers: number | string;
      }>(
        db,
        sql`
          select count(*)::int as referred,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated,
            count(distinct u.referred_by)::int as referrers
          from users u where u.referred_by is not null`,
      );
      const top = await executeRows<{
        id: string;
        full_name: string;
        joined: number | string;
        donated: number | string;
      }>(
        db,
        sql`
          select r.id, r.full_name, count(*)::int as joined,
            count(*) filter (where exists (
              select 1 from donations d where d.donor_id = u.id
            ))::int as donated
          from users u join users r on r.id = u.referred_by
          group by r.id, r.full_name
          order by joined desc, r.full_name
          limit 20`,
      );
      const clusters = await executeRows<{
        hash: string;
        accounts: number | string;
        referred: number | string;
        first_at: Date | string;
        last_at: Date | string;
      }>(
        db,
        sql`
          select u.registration_address_hash as hash, count(*)::int as accounts,
            count(u.referred_by)::int as referred,
            min(u.created_at) as first_at, max(u.created_at) as last_at
          from users u
          where u.registration_address_hash is not null
          group by 1
          having count(*) >= ${REFERRAL_CLUSTER_MIN_ACCOUNTS}
          order by accounts desc, last_at desc
          limit 20`,
      );
      const members = clusters.length
        ? await executeRows<{
            hash: string;
            id: string;
            full_name: string;
            created_at: Date | string;
            referrer_name: string | null;
          }>(
            db,
            sql`
              select * from (
                select u.registration_address_hash as hash, u.id, u.full_name, u.created_at,
                  r.full_name as referrer_name,
                  row_number() over (
                    partition by u.registration_address_hash order by u.created_at desc
                  ) as n
                from users u left join users r on r.id = u.referred_by
                where u.registration_address_hash in (${sql.join(
                  clusters.map((cluster) => sql`${cluster.hash}`),
                  sql`, `,
                )})
              ) ranked
              where n <= 10
              order by created_at desc`,
          )
        : [];
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
