import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FacilityStock } from '@bdms/shared';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

const CENTRE = makeUser({
  id: 'hospital-2',
  email: 'desk@centre.example.in',
  role: 'hospital',
  name: 'Centre Desk',
  fullName: 'Centre Desk',
  bloodType: undefined,
});
const FACILITY = { id: 'bb-2292', name: 'Gandhi Hospital Blood Bank' };
const TWO_HOURS_AGO = new Date(Date.now() - 2 * 3_600_000).toISOString();
const NOW = new Date().toISOString();

function stock(units: number, updatedAt: string): FacilityStock {
  return {
    facilityId: FACILITY.id,
    updatedAt,
    stale: false,
    items: [
      { bloodType: 'O-', component: 'prbc', units, expiringUnits: null, updatedAt, stale: false },
    ],
  };
}

async function renderStock(server: Record<string, MockRoute>) {
  await seedSession(CENTRE);
  const api = mockApi({ 'GET /auth/me': ok({ user: CENTRE }), ...server });
  renderRoutes(routes, { path: '/hospital/stock' });
  // The first render loads the route's chunk and texts: slow on a busy machine.
  await screen.findByRole('heading', { level: 1, name: 'Update Blood Stock' }, { timeout: 15_000 });
  return { api, user: userEvent.setup() };
}

describe('/hospital/stock', { timeout: 30_000 }, () => {
  it('shows the figures with their age, steps one up and saves every line', async () => {
    const { api, user } = await renderStock({
      'GET /hospital/stock': ok({
        facility: FACILITY,
        verificationStatus: 'verified',
        canUpdate: true,
        stock: stock(3, TWO_HOURS_AGO),
      }),
      [`PUT /facilities/${FACILITY.id}/stock`]: ok(stock(4, NOW)),
    });
    expect(await screen.findByText('Last updated 2 hours ago')).toBeVisible();
    expect(screen.getByLabelText('O-')).toHaveValue('3');
    await user.click(screen.getByRole('button', { name: 'One more unit of O-' }));
    expect(screen.getByLabelText('O-')).toHaveValue('4');
    // With a change pending, "nothing changed" is not offered.
    expect(screen.getByRole('button', { name: /Nothing changed/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save 1 change' }));
    await waitFor(() =>
      expect(api.callsTo(`PUT /facilities/${FACILITY.id}/stock`)).toHaveLength(1),
    );
    const body = api.callsTo(`PUT /facilities/${FACILITY.id}/stock`)[0]!.body as {
      lines: { bloodType: string; component: string; units: number }[];
    };
    expect(body.lines).toHaveLength(40);
    expect(body.lines).toContainEqual({ bloodType: 'O-', component: 'prbc', units: 4 });
    expect(body.lines).toContainEqual({ bloodType: 'A+', component: 'cryo', units: 0 });
    expect(await screen.findByText('Stock saved.')).toBeVisible();
  });

  it('confirms every figure in one tap when nothing changed', async () => {
    const { api, user } = await renderStock({
      'GET /hospital/stock': ok({
        facility: FACILITY,
        verificationStatus: 'verified',
        canUpdate: true,
        stock: stock(3, TWO_HOURS_AGO),
      }),
      [`POST /facilities/${FACILITY.id}/stock/confirm`]: ok(stock(3, NOW)),
    });
    await user.click(await screen.findByRole('button', { name: /Nothing changed/ }));
    await waitFor(() =>
      expect(api.callsTo(`POST /facilities/${FACILITY.id}/stock/confirm`)).toHaveLength(1),
    );
    expect(await screen.findByText('Last updated now')).toBeVisible();
  });

  it('says so while the account waits for verification, with no steppers', async () => {
    await renderStock({
      'GET /hospital/stock': ok({
        facility: FACILITY,
        verificationStatus: 'pending',
        canUpdate: false,
        stock: { facilityId: FACILITY.id, updatedAt: null, stale: true, items: [] },
      }),
    });
    expect(await screen.findByText(/has not verified this account yet/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /One more unit/ })).toBeNull();
  });
});
