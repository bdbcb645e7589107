import {
  NOTIFICATION_SETTINGS_DEFAULTS,
  PHONE_CHANNELS,
  startOfIndianDay,
  todayInIndia,
  type ChannelConsent,
  type ChannelStatus,
  type DirectBudget,
  type FeatureFlags,
  type PhoneChannel,
  type UpdateChannelConsent,
} from '@bdms/shared';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  bloodRequests,
  DELIVERY_CHANNELS,
  notificationDeliveries,
  notifications,
  users,
} from '../../db/schema';
import { createActivityLog } from '../../lib/activity-log';
import type { DirectBudgets } from '../../lib/direct-budgets';
import { AppError } from '../../lib/app-error';
import { readNotificationSettings } from '../../lib/notification-settings';
import type { AuthUser } from '../../plugins/auth';
import type { Channel } from './channels/channel';
import { grantConsent, latestConsent, withdrawConsent } from './consents';
import { trackingPath } from './requester-messages';

export interface ChannelsServiceDeps {
  db: Db;
  now: () => number;
  channels: readonly Channel[];
  getFlags(): Promise<FeatureFlags>;
  /** Today's codes and answers to replies against their budgets (issue #32 item 8). */
  directBudgets?: Pick<DirectBudgets, 'today'>;
}

const CHANNEL_FLAG: Record<PhoneChannel, keyof FeatureFlags> = {
  sms: 'smsNotifications',
  whatsapp: 'whatsappIntegration',
};

/**
 * The people's side of the phone channels (consent per channel, recorded and withdrawable),
 * the administrators' side (each channel's health, today's figures against its budget) and
 * the short links an SMS carries.
 */
export function createChannelsService(deps: ChannelsServiceDeps) {
  const { db, now } = deps;
  const configured = new Set(deps.channels.map((channel) => channel.name));

  async function consentView(userId: string, channel: PhoneChannel): Promise<ChannelConsent> {
    const flags = await deps.getFlags();
    const row = await latestConsent(db, userId, channel);
    return {
      channel,
      available: flags[CHANNEL_FLAG[channel]] && configured.has(channel),
      consented: row !== null && row.withdrawnAt === null,
      grantedAt: row?.grantedAt.toISOString() ?? null,
      wording: row?.wording ?? null,
      withdrawnAt: row?.withdrawnAt?.toISOString() ?? null,
      withdrawnVia: (row?.withdrawnVia as ChannelConsent['withdrawnVia']) ?? null,
    };
  }

  return {
    async listConsents(caller: AuthUser): Promise<ChannelConsent[]> {
      return Promise.all(PHONE_CHANNELS.map((channel) => consentView(caller.id, channel)));
    },

    /**
     * Grants (with the wording of `language`, as shown) or withdraws. Granting needs a phone
     * on the account and the channel available; withdrawing always works.
     */
    async updateConsent(
      caller: AuthUser,
      channel: PhoneChannel,
      input: UpdateChannelConsent,
    ): Promise<ChannelConsent> {
      const at = new Date(now());
      if (input.consent) {
        const view = await consentView(caller.id, channel);
        if (!view.available) {
          throw new AppError('CONFLICT', `Alerts by ${channel} are not available right now.`);
        }
        const [user] = await db
          .select({ phone: users.phone, phoneVerifiedAt: users.phoneVerifiedAt })
          .from(users)
          .where(eq(users.id, caller.id))
          .limit(1);
        if (!user?.phone) {
          throw new AppError(
            'CONFLICT',
            'Add a mobile number to your account before turning on phone alerts.',
          );
        }
        // Issue #32 item 7: consent only for a number that came back with its code.
        if (!user.phoneVerifiedAt) {
          throw new AppError(
            'PHONE_NOT_VERIFIED',
            'Verify your mobile number with the code we send to it before turning on SMS or WhatsApp alerts.',
          );
        }
        await grantConsent(db, caller.id, channel, input.language, at);
      } else {
        await withdrawConsent(db, caller.id, channel, 'settings', at);
      }
      await createActivityLog(db).record({
        action: input.consent ? 'consent.granted' : 'consent.withdrawn',
        actorId: caller.id,
        actorRole: caller.role,
        targetType: 'user',
        targetId: caller.id,
        details: { channel, language: input.language },
      });
      return consentView(caller.id, channel);
    },

    /** Every channel: configured, switched on, failing since, today's figures and budget. */
    async statuses(): Promise<ChannelStatus[]> {
      const flags = await deps.getFlags();
      const settings = await readNotificationSettings(db);
      const since = startOfIndianDay(todayInIndia(now()));
      const rows = await db
        .select({
          channel: notificationDeliveries.channel,
          sent: sql<number>`count(*) filter (where ${notificationDeliveries.status} = 'sent' and ${notificationDeliveries.sentAt} >= ${since})`.mapWith(
            Number,
          ),
          failed:
            sql<number>`count(*) filter (where ${notificationDeliveries.status} = 'failed' and ${notificationDeliveries.createdAt} >= ${since})`.mapWith(
              Number,
            ),
          queued:
            sql<number>`count(*) filter (where ${notificationDeliveries.status} = 'queued')`.mapWith(
              Number,
            ),
          over: sql<number>`count(*) filter (where ${notificationDeliveries.overBudget} and ${notificationDeliveries.sentAt} >= ${since})`.mapWith(
            Number,
          ),
        })
        .from(notificationDeliveries)
        .where(gte(notificationDeliveries.createdAt, new Date(since.getTime() - 30 * 86_400_000)))
        .groupBy(notificationDeliveries.channel);
      const figures = new Map(rows.map((row) => [row.channel, row]));
      const byName = new Map(deps.channels.map((channel) => [channel.name, channel]));
      return DELIVERY_CHANNELS.map((name) => {
        const channel = byName.get(name);
        const health = channel?.health?.() ?? null;
        const row = figures.get(name);
        const enabled =
          name === 'push'
            ? settings.pushEnabled
            : name === 'email'
              ? settings.emailEnabled && flags.emailNotifications
              : name === 'sms'
                ? settings.smsEnabled && flags.smsNotifications
                : flags.whatsappIntegration;
        const budget =
          name === 'sms'
            ? (settings.smsDailyBudget ?? NOTIFICATION_SETTINGS_DEFAULTS.smsDailyBudget ?? null)
            : name === 'whatsapp'
              ? (settings.whatsappDailyBudget ??
                NOTIFICATION_SETTINGS_DEFAULTS.whatsappDailyBudget ??
                null)
              : null;
        return {
          channel: name,
          configured: channel !== undefined && (health?.configured ?? true),
          enabled,
          failingSince: health?.failingSince?.toISOString() ?? null,
          lastError: health?.lastError ?? null,
          sentToday: row?.sent ?? 0,
          failedToday: row?.failed ?? 0,
          queued: row?.queued ?? 0,
          dailyBudget: budget,
          overBudgetToday: row?.over ?? 0,
        };
      });
    },

    /** Codes and answers to replies sent today, and their daily budgets (issue #32 item 8). */
    async directBudgets(): Promise<{ codes: DirectBudget; answers: DirectBudget }> {
      const none = async (): Promise<DirectBudget> => ({ sentToday: 0, dailyBudget: 0 });
      const [codes, answers] = await Promise.all([
        deps.directBudgets?.today('codes') ?? none(),
        deps.directBudgets?.today('answers') ?? none(),
      ]);
      return { codes, answers };
    },

    /**
     * The page a short link `/r/<code>` opens, or null: the notification's link, or for a guest
     * requester's message (no notification) the request's tracking page.
     */
    async shortLinkTarget(code: string): Promise<string | null> {
      const [row] = await db
        .select({ link: notifications.link, trackingCode: bloodRequests.trackingCode })
        .from(notificationDeliveries)
        .leftJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
        .leftJoin(
          bloodRequests,
          and(
            isNull(notificationDeliveries.notificationId),
            eq(bloodRequests.id, notificationDeliveries.bloodRequestId),
          ),
        )
        .where(eq(notificationDeliveries.shortCode, code))
        .limit(1);
      if (!row) return null;
      return row.link ?? (row.trackingCode ? trackingPath(row.trackingCode) : null);
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
