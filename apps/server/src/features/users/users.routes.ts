import {
  changePasswordResultSchema,
  changePasswordSchema,
  successEnvelope,
  updateProfileSchema,
  userIdParamsSchema,
  userResultSchema,
} from '@bdms/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser } from '../../plugins/auth';
import type { UsersService } from './users.service';

const BEARER = [{ bearerAuth: [] }];

export interface UsersRoutesOptions {
  users: UsersService;
}

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesOptions> = async (app, { users }) => {
  app.get(
    '/api/v1/users/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'A user',
        description:
          'The user themself or an administrator; anyone else is 403 `FORBIDDEN` (whether or not the id exists). ' +
          'An id that is not a UUID is 400 `VALIDATION_ERROR`; an erased or unknown user is 404 for administrators.',
        security: BEARER,
        params: userIdParamsSchema,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { user: await users.getUser(currentUser(request), request.params.id) },
    }),
  );

  app.patch(
    '/api/v1/users/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Change profile fields',
        description:
          'The user themself or an administrator. Any of `fullName, phone, city, state, pincode, bloodType, available, ' +
          'language`; unknown fields are 400. A phone that belongs to another account is 409 `PHONE_TAKEN`. The blood ' +
          'type is checked when a donor is approved, so a donor can change it only while `pending`: after that it is ' +
          '409 `BLOOD_TYPE_LOCKED` (an administrator can still correct it). Changes are recorded in the activity log ' +
          '(field names only).',
        security: BEARER,
        params: userIdParamsSchema,
        body: updateProfileSchema,
        response: {
          200: successEnvelope(userResultSchema),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        user: await users.updateUser(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/v1/users/:id/password',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Change the password (extension)',
        description:
          'The user themself only (administrators too get 403 for other accounts). A wrong `currentPassword` is 400 ' +
          '`VALIDATION_ERROR` with `details: [{path: "body.currentPassword", …}]`, deliberately not a 401, so the ' +
          'client does not try a token refresh; 5 wrong tries in 15 minutes are 429, as for sign-in. On success every ' +
          'session of the account is signed out (refresh tokens revoked, access tokens refused) and `tokens` holds a ' +
          'new session for the device that made the change: store them.',
        security: BEARER,
        params: userIdParamsSchema,
        body: changePasswordSchema,
        response: {
          200: successEnvelope(changePasswordResultSchema),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        changed: true as const,
        tokens: await users.changePassword(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );
};
