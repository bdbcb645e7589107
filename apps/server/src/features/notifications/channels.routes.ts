import {
  channelConsentSchema,
  channelConsentsSchema,
  channelStatusesSchema,
  PHONE_CHANNELS,
  successEnvelope,
  updateChannelConsentSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireRole } from '../../plugins/auth';
import type { ChannelsService } from './channels.service';

const BEARER = [{ bearerAuth: [] }];
const SHORT_CODE = /^[2-9A-HJ-NP-TV-Za-hj-km-np-tv-z]{8}$/;

export interface ChannelsRoutesOptions {
  channels: ChannelsService;
}

/** Consent to phone channels, the administrators' channel status, and SMS short links. */
export const channelsRoutes: FastifyPluginAsyncZod<ChannelsRoutesOptions> = async (
  app,
  { channels },
) => {
  app.get(
    '/api/v1/notifications/channels',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'My consent to alerts by SMS and WhatsApp',
        description:
          'Per channel: whether it is available (flag on, provider configured), whether the caller consented, ' +
          'when, the exact wording agreed to, and when and how (settings or a STOP reply) it was withdrawn.',
        security: BEARER,
        response: { 200: successEnvelope(channelConsentsSchema), ...errorResponses(401) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { channels: await channels.listConsents(currentUser(request)) },
    }),
  );

  app.put(
    '/api/v1/notifications/channels/:channel',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Give or withdraw consent to alerts on a phone channel',
        description:
          '`consent: true` records the consent with the time and the wording of `language` (the text shown beside ' +
          'the switch, from the shared CHANNEL_CONSENT_WORDING); it needs a phone on the account and the channel ' +
          'available (409 otherwise), and the phone verified by its code (`user.phoneVerifiedAt`; 409 ' +
          '`PHONE_NOT_VERIFIED` otherwise, issue #32). Alerts go only to a verified number, and a reply by SMS or ' +
          'WhatsApp counts for an account only when it comes from its verified number. `consent: false` withdraws ' +
          'at once; queued alerts on that channel are not sent.',
        security: BEARER,
        params: z.object({ channel: z.enum(PHONE_CHANNELS) }),
        body: updateChannelConsentSchema,
        response: {
          200: successEnvelope(z.object({ channel: channelConsentSchema })),
          ...errorResponses(400, 401, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        channel: await channels.updateConsent(
          currentUser(request),
          request.params.channel,
          request.body,
        ),
      },
    }),
  );

  app.get(
    '/api/v1/admin/notifications/channels',
    {
      preHandler: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['admin'],
        summary: 'Health and figures of every delivery channel',
        description:
          'Per channel (push, email, sms, whatsapp): configured, switched on, failing since (null while it works) ' +
          'and the last error, messages sent and failed since 00:00 India time, queued, the daily budget and how many ' +
          'Critical messages went beyond it today. The budget is set with PUT /admin/notifications/settings ' +
          '(`smsDailyBudget`, `whatsappDailyBudget`). `sentToday` of sms also counts the one-time codes and the ' +
          'answers to replies (which are not outbox messages and do not spend the alert budget). `directBudgets`: ' +
          'the one-time codes sent to phones today (every number and purpose) and the answers to SMS/WhatsApp ' +
          'replies sent today (every sender), each against its own daily budget (`phoneCodeDailyBudget`, ' +
          '`replyAnswerDailyBudget`, also set with PUT /admin/notifications/settings). Past the codes budget every ' +
          'flow that sends a code answers 429 until midnight India time (a guest request then goes to review with ' +
          '`contactPhoneConfirmed: false`); past the answers budget replies are still acted on but not answered. ' +
          'The administrators are told in the app when 80 % of either is spent.',
        security: BEARER,
        response: { 200: successEnvelope(channelStatusesSchema), ...errorResponses(401, 403) },
      },
    },
    async () => ({
      success: true as const,
      data: {
        channels: await channels.statuses(),
        directBudgets: await channels.directBudgets(),
      },
    }),
  );

  app.get(
    '/r/:code',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Short link of an SMS',
        description:
          'Redirects (302) to the page the alert links to (the matched request: `/dashboard?request=<id>`), where ' +
          'the donor signs in as usual; the link in a guest requester’s SMS opens the request’s tracking page ' +
          '(`/emergency?track=<code>`). An unknown or malformed code redirects to the home page.',
        params: z.object({ code: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const target = SHORT_CODE.test(request.params.code)
        ? await channels.shortLinkTarget(request.params.code)
        : null;
      return reply.redirect(target && target.startsWith('/') ? target : '/', 302);
    },
  );
};
