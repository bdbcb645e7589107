import { CHANNEL_CONSENT_WORDING, type MessageLanguage, type PhoneChannel } from '@bdms/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { channelConsents, type ChannelConsentRow } from '../../db/schema';

/** The person's newest consent row for `channel` (granted or withdrawn), or null. */
export async function latestConsent(
  db: Db,
  userId: string,
  channel: PhoneChannel,
): Promise<ChannelConsentRow | null> {
  const [row] = await db
    .select()
    .from(channelConsents)
    .where(and(eq(channelConsents.userId, userId), eq(channelConsents.channel, channel)))
    .orderBy(desc(channelConsents.grantedAt))
    .limit(1);
  return row ?? null;
}

export async function hasConsent(db: Db, userId: string, channel: PhoneChannel): Promise<boolean> {
  const row = await latestConsent(db, userId, channel);
  return row !== null && row.withdrawnAt === null;
}

/** Records a consent with its time and the exact wording shown (a no-op while one stands). */
export async function grantConsent(
  db: Db,
  userId: string,
  channel: PhoneChannel,
  language: MessageLanguage,
  at: Date,
): Promise<void> {
  if (await hasConsent(db, userId, channel)) return;
  await db.insert(channelConsents).values({
    userId,
    channel,
    language,
    wording: CHANNEL_CONSENT_WORDING[channel][language],
    grantedAt: at,
  });
}

/** Withdraws the standing consent at once; returns whether there was one. */
export async function withdrawConsent(
  db: Db,
  userId: string,
  channel: PhoneChannel,
  via: 'settings' | 'reply',
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(channelConsents)
    .set({ withdrawnAt: at, withdrawnVia: via })
    .where(
      and(
        eq(channelConsents.userId, userId),
        eq(channelConsents.channel, channel),
        isNull(channelConsents.withdrawnAt),
      ),
    )
    .returning({ id: channelConsents.id });
  return rows.length > 0;
}
