import { HOSPITAL_INVITATION_TTL_HOURS, RESET_TOKEN_TTL_MINUTES } from '@bdms/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passwordResetTokens, type ResetTokenPurpose } from '../db/schema';
import { generateOpaqueToken, hashOpaqueToken } from './tokens';

/** How long a link of each purpose works: a forgotten password 1 hour, an invitation 72 hours. */
export const SET_PASSWORD_LINK_TTL_MS: Record<ResetTokenPurpose, number> = {
  reset: RESET_TOKEN_TTL_MINUTES * 60_000,
  invitation: HOSPITAL_INVITATION_TTL_HOURS * 3_600_000,
};

export interface SetPasswordLink {
  token: string;
  /** `${PUBLIC_URL}/reset-password?token=…`: the same page sets a forgotten and a first password. */
  link: string;
  expiresAt: Date;
}

/**
 * A single-use link that sets the account's password (`POST /auth/reset-password {token,
 * password}`), used for forgotten passwords and for hospital invitations. The table keeps only
 * the token's SHA-256. Pass the transaction that also enqueues the e-mail.
 *
 * A new invitation voids the older ones. A forgotten-password link (`keepEarlier`) leaves the
 * earlier links working until they expire (1 hour): otherwise anyone who knows the e-mail
 * address could void the link the owner is about to use (issue #14). Using any link, or a
 * password change, voids them all.
 */
export async function issueSetPasswordLink(
  db: Db,
  input: {
    userId: string;
    purpose: ResetTokenPurpose;
    now: number;
    publicUrl: string;
    keepEarlier?: boolean;
  },
): Promise<SetPasswordLink> {
  const token = generateOpaqueToken();
  const at = new Date(input.now);
  const expiresAt = new Date(input.now + SET_PASSWORD_LINK_TTL_MS[input.purpose]);
  if (!input.keepEarlier) await voidSetPasswordLinks(db, input.userId, at);
  await db.insert(passwordResetTokens).values({
    userId: input.userId,
    tokenHash: hashOpaqueToken(token),
    purpose: input.purpose,
    createdAt: at,
    expiresAt,
  });
  return { token, link: `${input.publicUrl}/reset-password?token=${token}`, expiresAt };
}

/** Voids every unused set-password link of the user (a password change or reset). */
export async function voidSetPasswordLinks(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
