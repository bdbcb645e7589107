import type { NotificationSettings } from '@bdms/shared';
import type { Db } from '../../../db/client';
import type {
  DeliveryChannel,
  NotificationDeliveryRow,
  notificationDeliveries,
} from '../../../db/schema';
import type { NotificationParams, NotificationType } from '../templates';

export type DeliveryInsert = typeof notificationDeliveries.$inferInsert;

/** What `notify` was asked to announce, as every channel sees it. */
export interface NotificationEvent {
  notificationId: string;
  userId: string;
  type: NotificationType;
  params: NotificationParams;
  link: string | null;
  /** Also outside the app, on the channels the person chose (e-mail, SMS, WhatsApp). */
  reachOut: boolean;
  critical: boolean;
  bloodRequestId: string | null;
  /**
   * Read with the person in the notifier's one statement for every recipient (issue #20):
   * `pushSubscriptionIds`, their push subscriptions; `consents`, whether their newest SMS and
   * WhatsApp consent stands (not withdrawn).
   */
  user: {
    language: string;
    phone: string | null;
    pushSubscriptionIds: readonly string[];
    consents: { sms: boolean; whatsapp: boolean };
  };
  at: Date;
}

/** What a guest requester is told on their phone (features/notifications/requester-messages.ts). */
export const REQUESTER_MESSAGE_KINDS = ['request_received', 'donor_coming'] as const;
export type RequesterMessageKind = (typeof REQUESTER_MESSAGE_KINDS)[number];

/**
 * A message to the contact phone of a guest's blood request: no account, so no in-app
 * notification and no consent record; the number was given for this request.
 */
export interface RequesterMessage {
  kind: RequesterMessageKind;
  bloodRequestId: string;
  /** The request's contact phone, an Indian mobile in E.164. */
  destination: string;
  /** The requester's language (the request's `language`). */
  language: string | null;
  trackingCode: string;
  /** The tracking page, absolute (`<PUBLIC_URL>/emergency?track=<code>`). */
  trackingUrl: string;
  /** A Critical request's messages: counted, but sent even over the daily budget. */
  critical: boolean;
  at: Date;
  /**
   * Whether this message already went for the request (at most one of each kind): asked only
   * once a channel has planned a message, just before it is queued.
   */
  alreadySent?: () => Promise<boolean>;
}

export interface PlanContext {
  /** The caller's transaction: every read goes through it (PGlite runs one at a time). */
  tx: Db;
  settings: NotificationSettings;
  /** A feature flag as the transaction sees it. */
  flag(key: 'emailNotifications' | 'smsNotifications' | 'whatsappIntegration'): Promise<boolean>;
}

/**
 * How one delivery attempt ended. `handled`: the channel already stored the outcome in its own
 * transaction (e-mail hands over to the mail outbox and marks the row sent together).
 */
export type DeliveryOutcome =
  | { status: 'sent'; providerMessageId?: string | null; overBudget?: boolean }
  | { status: 'failed' | 'gone' | 'skipped'; reason: string }
  | { status: 'retry'; reason: string }
  | { status: 'handled' };

export interface ChannelHealth {
  /** The channel has what it needs to send (a URL, a token…). */
  configured: boolean;
  /** Since when sending has been failing (null while it works). */
  failingSince: Date | null;
  lastError: string | null;
}

/**
 * One way of reaching a person. `plan` writes nothing: it returns the delivery rows this channel
 * owes for an event (none when the person did not choose it, the flag is off…); the notifier
 * inserts them in the event's transaction. `deliver` makes one attempt for one row. A new
 * channel is one file implementing this, added to the list in services.ts.
 */
export interface Channel {
  name: DeliveryChannel;
  /** Rows of this channel may be attempted side by side (the provider has a send window). */
  concurrent?: boolean;
  plan(event: NotificationEvent, context: PlanContext): Promise<DeliveryInsert[]>;
  /**
   * The rows for several events at once, one list per event in their order: for a channel whose
   * plan reads the database, so a batch costs its statements once, not once per person. The
   * notifier uses it instead of `plan` when present.
   */
  planMany?(
    events: readonly NotificationEvent[],
    context: PlanContext,
  ): Promise<DeliveryInsert[][]>;
  /** The rows this channel owes for a guest requester's message (phone channels only). */
  planRequester?(message: RequesterMessage, context: PlanContext): Promise<DeliveryInsert[]>;
  deliver(row: NotificationDeliveryRow): Promise<DeliveryOutcome>;
  /**
   * One attempt for several rows together, outcomes in their order: for a channel whose attempt
   * is a few statements, so a batch costs them once (issue #20). A throw is a failed attempt of
   * every row. The notifier uses it instead of `deliver` when present.
   */
  deliverMany?(rows: readonly NotificationDeliveryRow[]): Promise<DeliveryOutcome[]>;
  health?(): ChannelHealth;
  start?(): void;
  stop?(): Promise<void>;
}
