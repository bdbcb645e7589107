import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import type { User } from '../../features/auth/types';
import { routes } from '../router';

async function renderProfile(user: User, server: Record<string, MockRoute>, flag: boolean) {
  await seedSession(user);
  const api = mockApi({ 'GET /auth/me': ok({ user }), ...server });
  renderRoutes(routes, { path: '/profile', flags: { phoneVerification: flag } });
  await screen.findByRole('heading', { level: 2, name: 'Personal details' }, { timeout: 20_000 });
  return { api, user: userEvent.setup() };
}

describe(
  '/profile: verifying the mobile number (phoneVerification on)',
  { timeout: 30_000 },
  () => {
    it('says what an unverified number cannot do, sends a new code and verifies it', async () => {
      const donor = makeUser({ phone: '+919876543210', phoneVerifiedAt: null });
      const { api, user } = await renderProfile(
        donor,
        {
          'POST /users/u-1/phone/verification': ok({
            phone: '+919876543210',
            expiresAt: '2026-11-21T10:10:00.000Z',
          }),
          'POST /users/u-1/phone/verify': (request) =>
            (request.body as { code: string }).code === '482913'
              ? ok({ user: { ...donor, phoneVerifiedAt: '2026-11-21T10:01:00.000Z' } })
              : fail(400, 'INVALID_PHONE_CODE'),
        },
        true,
      );
      expect(screen.getByRole('heading', { name: 'Verify your mobile number' })).toBeVisible();
      expect(screen.getByText(/cannot sign in with an SMS code/)).toBeVisible();
      await user.click(screen.getByRole('button', { name: 'Send a new code' }));
      expect(
        await screen.findByText(/We sent a new code by SMS to \+91 98765 43210/),
      ).toBeVisible();
      const field = screen.getAllByLabelText(/^Code from the SMS/)[0]!;
      await user.type(field, '111111');
      await user.click(screen.getByRole('button', { name: 'Verify number' }));
      await waitFor(() =>
        expect(field).toHaveAccessibleDescription(expect.stringMatching(/Server text|code/)),
      );
      await user.clear(field);
      await user.type(field, '482913');
      await user.click(screen.getByRole('button', { name: 'Verify number' }));
      await waitFor(() =>
        expect(screen.queryByRole('heading', { name: 'Verify your mobile number' })).toBeNull(),
      );
      expect(api.callsTo('POST /users/u-1/phone/verify').map((call) => call.body)).toEqual([
        { code: '111111' },
        { code: '482913' },
      ]);
    });

    it('shows nothing once the number is verified', async () => {
      await renderProfile(
        makeUser({ phone: '+919876543210', phoneVerifiedAt: '2026-11-20T10:00:00.000Z' }),
        {},
        true,
      );
      expect(screen.queryByRole('heading', { name: 'Verify your mobile number' })).toBeNull();
    });
  },
);
