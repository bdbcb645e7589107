import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminReferrals, MyReferrals } from '@bdms/shared';
import { routes } from '../../../../app/router';
import { ADMIN, dashboardRoutes } from '../../../admin/test/fixtures';
import { mockApi, ok } from '../../../../test/api';
import { renderRoutes } from '../../../../test/render';
import { makeUser, seedSession } from '../../../../test/session';

const MINE: MyReferrals = {
  code: 'ABCD2345',
  link: 'https://bdms.example/register?ref=ABCD2345',
  shareText: 'Join me as a donor: https://bdms.example/register?ref=ABCD2345',
  whatsappUrl: 'https://wa.me/?text=Join',
  joined: 5,
  donated: 2,
  milestones: [
    { joined: 1, reached: true },
    { joined: 5, reached: true },
    { joined: 10, reached: false },
    { joined: 25, reached: false },
  ],
  friends: [{ firstName: 'Priya', joinedAt: '2026-03-02T05:00:00.000Z', donated: true }],
};

async function renderDashboard(referralSystem: boolean) {
  const user = makeUser();
  await seedSession(user);
  const api = mockApi({
    'GET /auth/me': ok({ user }),
    'GET /users/u-1/stats': ok({
      totalDonations: 0,
      lastDonationAt: null,
      nextEligibleAt: null,
      livesImpacted: 0,
      requestsResponded: 0,
    }),
    'GET /users/u-1/questionnaire': ok({ questionnaire: null }),
    'GET /users/u-1/availability': ok({
      available: true,
      until: null,
      confirmedAt: null,
      expiresAt: null,
      needsReconfirmation: false,
    }),
    'GET /referrals/me': ok(MINE),
  });
  renderRoutes(routes, { path: '/dashboard', flags: { referralSystem } });
  await screen.findByRole('heading', { name: 'Availability' }, { timeout: 8000 });
  return api;
}

describe('referrals (referralSystem)', { timeout: 30_000 }, () => {
  it('has no invitation card and asks nothing while the flag is off', async () => {
    const api = await renderDashboard(false);
    expect(screen.queryByRole('heading', { name: 'Invite friends' })).toBeNull();
    expect(api.callsTo('GET /referrals/me')).toHaveLength(0);
  });

  it('shows the code, the WhatsApp share, the counts, the badges and consenting friends when on', async () => {
    const api = await renderDashboard(true);
    const card = (await screen.findByRole('heading', { name: 'Invite friends' })).closest(
      'section',
    )!;
    expect(await within(card).findByText('ABCD2345')).toBeInTheDocument();
    expect(api.callsTo('GET /referrals/me')[0]!.query.get('lang')).toBe('en');
    expect(within(card).getByRole('link', { name: /Share on WhatsApp/ })).toHaveAttribute(
      'href',
      'https://wa.me/?text=Join',
    );
    expect(within(card).getByText('5 joined · 2 went on to donate')).toBeInTheDocument();
    const badges = within(card).getByRole('list', { name: 'Badges' });
    expect(
      within(badges)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['1 approved ✓', '5 approved ✓', '10 approved', '25 approved']);
    expect(within(card).getByText(/Priya joined on .* and has donated/)).toBeInTheDocument();
  });

  it('offers the inviter consent on /register?ref= while on, unticked by default', async () => {
    const api = mockApi({ 'POST /auth/register': ok(null, 400) });
    renderRoutes(routes, { path: '/register?ref=abcd2345', flags: { referralSystem: true } });
    expect(await screen.findByText('A friend invited you (code ABCD2345).')).toBeInTheDocument();
    expect(
      screen.getByLabelText(
        'Let the friend who invited me see my first name and whether I have donated.',
      ),
    ).not.toBeChecked();
    await userEvent
      .setup()
      .click(
        screen.getByLabelText(
          'Let the friend who invited me see my first name and whether I have donated.',
        ),
      );
    expect(
      screen.getByLabelText(
        'Let the friend who invited me see my first name and whether I have donated.',
      ),
    ).toBeChecked();
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);
  });

  it('says nothing about invitations on /register?ref= while off', async () => {
    mockApi({});
    renderRoutes(routes, { path: '/register?ref=ABCD2345', flags: { referralSystem: false } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText(/A friend invited you/)).toBeNull();
  });

  it('shows administrators the counts and the address clusters when on', async () => {
    const overview: AdminReferrals = {
      totals: { referred: 12, donated: 4, referrers: 3 },
      topReferrers: [{ id: 'd-1', name: 'Ravi Kumar', joined: 9, donated: 3 }],
      clusters: [
        {
          key: 'a1b2c3d4',
          accounts: 4,
          referred: 4,
          firstAt: '2026-03-01T05:00:00.000Z',
          lastAt: '2026-03-01T06:00:00.000Z',
          members: [
            {
              id: 'u-9',
              name: 'Fake One',
              createdAt: '2026-03-01T06:00:00.000Z',
              referrerName: 'Ravi Kumar',
            },
          ],
        },
      ],
    };
    await seedSession(ADMIN);
    mockApi({ ...dashboardRoutes(), 'GET /admin/referrals': ok(overview) });
    renderRoutes(routes, { path: '/admin', flags: { referralSystem: true } });
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    expect(await within(panel).findByText('Ravi Kumar')).toBeInTheDocument();
    expect(
      within(panel).getByText(/Address a1b2c3d4: 4 accounts, 4 with an invitation/),
    ).toBeInTheDocument();
    expect(within(panel).getByText(/Fake One, .*, invited by Ravi Kumar/)).toBeInTheDocument();
  });
});
