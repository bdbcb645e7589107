import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Donation, DonorStats } from '@bdms/shared';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

const DAY = 86_400_000;
const longDate = (date: Date | string) =>
  new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }).format(
    new Date(date),
  );

function donation(overrides: Partial<Donation> = {}): Donation {
  return {
    id: 'd-1',
    donatedAt: '2026-05-04T09:00:00.000Z',
    units: 1,
    place: 'Sassoon General Hospital, Pune',
    verified: true,
    certificateAvailable: true,
    certificateNumber: 'BDMS-2026-7K3M9QXA',
    ...overrides,
  };
}

const stats = (overrides: Partial<DonorStats> = {}): DonorStats => ({
  totalDonations: 2,
  lastDonationAt: null,
  nextEligibleAt: null,
  livesImpacted: 3,
  requestsResponded: 0,
  ...overrides,
});

async function renderPage(path: string, server: Record<string, MockRoute> = {}) {
  const user = makeUser();
  await seedSession(user);
  const api = mockApi({
    'GET /auth/me': ok({ user }),
    'GET /users/u-1/donations': ok({
      items: [
        donation(),
        donation({
          id: 'd-2',
          donatedAt: '2025-12-01',
          place: 'Red Cross blood camp, Pune',
          verified: false,
          certificateAvailable: false,
          certificateNumber: null,
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 10,
    }),
    'GET /users/u-1/stats': ok(stats()),
    ...server,
  });
  const rendered = renderRoutes(routes, { path });
  return { ...rendered, api, user: userEvent.setup() };
}

describe('/donor/history', () => {
  it('lists every donation with its place, date and whether a hospital verified it', async () => {
    await renderPage('/donor/history');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Donation History' }),
    ).toBeInTheDocument();
    await screen.findByText('Sassoon General Hospital, Pune');
    const items = screen.getAllByRole('listitem');
    const verified = items.find((item) => item.textContent?.includes('Sassoon'))!;
    expect(verified).toHaveTextContent('4 May 2026');
    expect(within(verified).getByText('Verified')).toBeVisible();
    const reported = items.find((item) => item.textContent?.includes('Red Cross'))!;
    expect(reported).toHaveTextContent('1 December 2025');
    expect(within(reported).getByText('Reported by you')).toBeVisible();
    expect(within(reported).queryByRole('button', { name: /Download certificate/ })).toBeNull();
  });

  it('reports a donation made elsewhere and says until when the donor is hidden', async () => {
    const hiddenUntil = new Date(Date.now() + 100 * DAY).toISOString();
    const { user, api } = await renderPage('/donor/history', {
      'POST /users/u-1/donations': ok({ donation: donation({ verified: false }) }, 201),
      'GET /users/u-1/stats': ok(stats({ nextEligibleAt: hiddenUntil })),
    });
    const form = await screen.findByRole('region', { name: 'Report a donation made elsewhere' });
    const day = new Date(Date.now() - 20 * DAY).toISOString().slice(0, 10);
    await user.type(within(form).getByLabelText(/^Date of the donation/), day);
    await user.type(
      within(form).getByLabelText(/^Where did you donate\?/),
      '  Red Cross camp, Pune ',
    );
    await user.click(within(form).getByRole('button', { name: 'Report donation' }));
    expect(
      await within(form).findByText(
        `Thank you! Your donation is recorded. You're now hidden from blood requests until ${longDate(hiddenUntil)}.`,
      ),
    ).toBeVisible();
    expect(api.callsTo('POST /users/u-1/donations')[0]!.body).toEqual({
      donatedAt: day,
      place: 'Red Cross camp, Pune',
    });
    expect(within(form).getByLabelText(/^Date of the donation/)).toHaveValue('');
  });

  it('refuses a date in the future without calling the server', async () => {
    const { user, api } = await renderPage('/donor/history');
    const form = await screen.findByRole('region', { name: 'Report a donation made elsewhere' });
    const date = within(form).getByLabelText(/^Date of the donation/);
    await user.type(date, new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10));
    await user.type(within(form).getByLabelText(/^Where did you donate\?/), 'Pune');
    await user.click(within(form).getByRole('button', { name: 'Report donation' }));
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription(
        "Not in the future. The date can't be in the future.",
      ),
    );
    expect(api.callsTo('POST /users/u-1/donations')).toHaveLength(0);
  });
});

describe('/donor/certificates', () => {
  it('lists verified donations with the verification link and downloads the certificate', async () => {
    const createObjectURL = vi.fn(() => 'blob:certificate');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const { user, api } = await renderPage('/donor/certificates', {
      'GET /donations/d-1/certificate': ok('pdf'),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Donation Certificates' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('BDMS-2026-7K3M9QXA')).toBeVisible();
    expect(screen.queryByText('Red Cross blood camp, Pune')).not.toBeInTheDocument();
    expect(
      screen.getByRole('link', {
        name: `${window.location.origin}/api/v1/certificates/BDMS-2026-7K3M9QXA`,
      }),
    ).toBeVisible();

    await user.click(
      screen.getByRole('button', { name: 'Download certificate for the donation of 4 May 2026' }),
    );
    expect(await screen.findByText('Certificate downloaded.')).toBeVisible();
    const [call] = api.callsTo('GET /donations/d-1/certificate');
    expect(call!.headers.get('Authorization')).toBe('Bearer access-1');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('certificate-BDMS-2026-7K3M9QXA.pdf');
    expect(clicked[0]!.href).toBe('blob:certificate');
  });
});
