import { z } from 'zod';

/**
 * Referrals (feature flag `referralSystem`, issue #21): a donor invites friends with a personal
 * code or link; the invitee's registration records who invited them. The inviter sees counts,
 * and names only of invitees who agreed at registration.
 */

/** 8 characters without look-alikes (no 0/O, 1/I/L): easy to read out and type. */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
export const REFERRAL_CODE_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

export const referralCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(REFERRAL_CODE_PATTERN, 'An invitation code has 8 letters and digits.');

/** Friends joined at which a badge is given. */
export const REFERRAL_MILESTONES = [1, 5, 10, 25] as const;

export const myReferralsSchema = z.object({
  code: z.string(),
  /** The registration page with the code, e.g. https://…/register?ref=ABCD2345. */
  link: z.string(),
  /** The message to share (no personal data: the link and an invitation only). */
  shareText: z.string(),
  /** https://wa.me/?text=… with the share text. */
  whatsappUrl: z.string(),
  /** People who registered with the code (accounts erased since included). */
  joined: z.number().int().nonnegative(),
  /** Of those, how many have given blood since (a donation recorded or reported). */
  donated: z.number().int().nonnegative(),
  /**
   * The badges: `reached` once that many invitees are approved donors (an administrator approved
   * them and they are not erased); pending, rejected, suspended and erased accounts do not count.
   */
  milestones: z.array(z.object({ joined: z.number().int(), reached: z.boolean() })),
  /** Only invitees who agreed to be named, first name only. */
  friends: z.array(z.object({ firstName: z.string(), joinedAt: z.string(), donated: z.boolean() })),
});
export type MyReferrals = z.infer<typeof myReferralsSchema>;

export const adminReferralsSchema = z.object({
  totals: z.object({
    referred: z.number().int().nonnegative(),
    donated: z.number().int().nonnegative(),
    referrers: z.number().int().nonnegative(),
  }),
  /** The donors who brought the most people, most first (20 at most). */
  topReferrers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      joined: z.number().int(),
      donated: z.number().int(),
    }),
  ),
  /**
   * Possible abuse: several accounts registered from one address (its keyed hash, shortened),
   * most first. Members: at most 10 per cluster, newest first.
   */
  clusters: z.array(
    z.object({
      key: z.string(),
      accounts: z.number().int(),
      referred: z.number().int(),
      firstAt: z.string(),
      lastAt: z.string(),
      members: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          createdAt: z.string(),
          referrerName: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type AdminReferrals = z.infer<typeof adminReferralsSchema>;

/** An address with this many registrations or more is listed as a cluster. */
export const REFERRAL_CLUSTER_MIN_ACCOUNTS = 3;
