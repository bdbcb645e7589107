import { getTableName, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { readThroughCache } from '../../db/read-cache';
import { channelConsents, pushSubscriptions, users } from '../../db/schema';

/** What the notifier and its channels need to know about a person, read once for a batch. */
export interface RecipientInfo {
  id: string;
  language: string;
  /**
   * The account's mobile number once VERIFIED (issue #32 item 7: it came back with its code),
   * else null: no SMS or WhatsApp goes to a number nobody proved is theirs, consent or not.
   */
  phone: string | null;
  deletedAt: Date | null;
  isDemo: boolean;
  pushSubscriptionIds: string[];
  consents: { sms: boolean; whatsapp: boolean };
}

/**
 * Whether the person's newest consent row for the channel stands: `hasConsent` (consents.ts)
 * as a correlated subquery, so a batch needs no statement per person and channel.
 */
const consentStands = (channel: 'sms' | 'whatsapp') => sql<boolean>`coalesce((
  select cc.withdrawn_at is null from channel_consents cc
  where cc.user_id = "users"."id" and cc.channel = ${channel}
  order by cc.granted_at desc limit 1), false)`;

/**
 * Every recipient with their push subscriptions and phone consents, in ONE statement however
 * many they are (issue #20: a verification that alerts twenty donors used to read each of them,
 * and each one's consents, on its own). Keyed by user id; unknown ids are absent.
 */
export async function readRecipients(
  tx: Db,
  userIds: readonly string[],
): Promise<Map<string, RecipientInfo>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const read = () => readRows(tx, ids);
  // The same few people again and again (the administrators told of every guest request): from
  // memory between writes to their rows' tables (db/read-cache.ts). A round of donors is a new
  // set each time and goes to the database.
  const rows =
    ids.length <= SMALL_SET
      ? await readThroughCache(
          tx,
          `recipients:${[...ids].sort().join(',')}`,
          RECIPIENT_TABLES,
          read,
        )
      : await read();
  return new Map(
    rows.map(({ sms, whatsapp, ...row }) => [row.id, { ...row, consents: { sms, whatsapp } }]),
  );
}

const SMALL_SET = 20;
const RECIPIENT_TABLES = [users, pushSubscriptions, channelConsents].map(getTableName);

function readRows(tx: Db, ids: string[]) {
  return tx
    .select({
      id: users.id,
      language: users.language,
      phone: sql<
        string | null
      >`case when ${users.phoneVerifiedAt} is not null then ${users.phone} end`,
      deletedAt: users.deletedAt,
      isDemo: users.isDemo,
      pushSubscriptionIds: sql<string[]>`coalesce((
        select array_agg(ps.id::text order by ps.id) from push_subscriptions ps
        where ps.user_id = "users"."id"), '{}'::text[])`,
      sms: consentStands('sms'),
      whatsapp: consentStands('whatsapp'),
    })
    .from(users)
    .where(inArray(users.id, ids));
}
