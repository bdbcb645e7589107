import {
  deletePushSubscriptionSchema,
  idParamsSchema,
  notificationPageSchema,
  notificationReadResultSchema,
  notificationsReadAllResultSchema,
  paginationQuerySchema,
  pushSubscriptionResultSchema,
  pushSubscriptionSchema,
  successEnvelope,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser } from '../../plugins/auth';
import type { NotificationsService } from './notifications.service';

const BEARER = [{ bearerAuth: [] }];

export interface NotificationsRoutesOptions {
  notifications: NotificationsService;
}

export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesOptions> = async (
  app,
  { notifications },
) => {
  app.get(
    '/api/v1/notifications',
    {
      // Authenticated in the handler, with the page in one statement (app.authenticateWith).
      // The verification outcome arrives here too.
      config: { allowUnverifiedHospital: true },
      schema: {
        tags: ['notifications'],
        summary: 'My notifications',
        description:
          "The caller's own, newest first, paginated; `unread` counts unread ones on all pages. Titles and messages " +
          "are written in the user's language (en, es, hi, bn, mr, te, ta; English otherwise) when the notification is created.",
        security: BEARER,
        querystring: paginationQuerySchema,
        response: {
          200: successEnvelope(notificationPageSchema),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.authenticateWith(
        request,
        notifications.list(request.query.page, request.query.pageSize),
      ),
    }),
  );

  app.post(
    '/api/v1/notifications/:id/read',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Mark a notification read',
        description:
          "Own notifications only: another user's is 404, like an unknown id. Idempotent.",
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: successEnvelope(notificationReadResultSchema),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { notification: await notifications.markRead(currentUser(request), request.params.id) },
    }),
  );

  app.post(
    '/api/v1/notifications/read-all',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Mark all my notifications read',
        description: '`updated` is how many were unread.',
        security: BEARER,
        response: {
          200: successEnvelope(notificationsReadAllResultSchema),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { updated: await notifications.markAllRead(currentUser(request)) },
    }),
  );

  app.post(
    '/api/v1/notifications/push-subscription',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Subscribe this browser to web push',
        description:
          "`{subscription}` is the browser's PushSubscription JSON; encrypt with the `vapidPublicKey` of " +
          "`GET /api/v1/config`. Only the browsers' push services are accepted (`https://` on fcm.googleapis.com, " +
          'updates.push.services.mozilla.com, *.push.apple.com, *.notify.windows.com), since the server sends requests ' +
          'to the endpoint; anything else is 400. An endpoint already known is moved to the caller (the last account ' +
          'signed in on that browser). Push messages carry only the title, message and link, never contact details.',
        security: BEARER,
        body: pushSubscriptionSchema,
        response: {
          200: successEnvelope(pushSubscriptionResultSchema),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const userAgent = request.headers['user-agent'];
      await notifications.subscribe(
        currentUser(request),
        request.body,
        typeof userAgent === 'string' ? userAgent : null,
      );
      return { success: true as const, data: { subscribed: true } };
    },
  );

  app.delete(
    '/api/v1/notifications/push-subscription',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Unsubscribe this browser from web push',
        description:
          '`{subscription: {endpoint}}`; an endpoint not (or no longer) subscribed is fine.',
        security: BEARER,
        body: deletePushSubscriptionSchema,
        response: {
          200: successEnvelope(pushSubscriptionResultSchema),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      await notifications.unsubscribe(currentUser(request), request.body.subscription.endpoint);
      return { success: true as const, data: { subscribed: false } };
    },
  );
};
