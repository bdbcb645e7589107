import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  BLOOD_TYPES,
  HOUR,
  type BloodType,
  type FacilityStock,
  type StockAvailability,
} from '@bdms/shared';
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
const HOUR_AGO = new Date(Date.now() - HOUR).toISOString();
const DAY_AGO = new Date(Date.now() - 30 * HOUR).toISOString();

/** Packed red cells of every group, 5 fresh units unless said. */
function ownStock(lines: Partial<Record<BloodType, { units: number; updatedAt?: string }>>) {
  const items = BLOOD_TYPES.map((bloodType) => {
    const line = lines[bloodType] ?? { units: 5 };
    const updatedAt = line.updatedAt ?? HOUR_AGO;
    return {
      bloodType,
      component: 'prbc' as const,
      units: line.units,
      expiringUnits: null,
      updatedAt,
      stale: updatedAt === DAY_AGO,
    };
  });
  const stock: FacilityStock = {
    facilityId: FACILITY.id,
    updatedAt: HOUR_AGO,
    stale: false,
    items,
  };
  return ok({ facility: FACILITY, verificationStatus: 'verified', canUpdate: true, stock });
}

const AVAILABILITY = (bloodType: BloodType): StockAvailability => ({
  origin: {
    latitude: 17.4,
    longitude: 78.5,
    source: 'pincode',
    pincode: '500003',
    district: 'Hyderabad',
    state: 'Telangana',
    place: null,
    confidence: 'high',
    approximate: false,
    requestedRadiusKm: 25,
    radiusKm: 25,
  } as StockAvailability['origin'],
  bloodType,
  component: 'prbc',
  rule: 'red_cells',
  compatibleTypes: [],
  items: [
    {
      id: 'bb-2250',
      name: `Asian Blood Bank (${bloodType})`,
      category: 'Charity',
      address: null,
      city: 'Secunderabad',
      district: 'HYDERABAD',
      state: 'Telangana',
      pincode: '500003',
      phone: '040 27505566',
      mobile: null,
      email: null,
      website: null,
      latitude: 17.4,
      longitude: 78.5,
      components: true,
      apheresis: false,
      serviceTime: null,
      is24x7: true,
      distanceKm: 3.2,
      stock: [{ bloodType, units: 6, expiringUnits: null, updatedAt: HOUR_AGO }],
    },
  ],
  compatible: [],
});

async function renderDashboard(server: Record<string, MockRoute>) {
  await seedSession(CENTRE);
  const api = mockApi({
    'GET /auth/me': ok({ user: CENTRE }),
    'GET /blood-requests': ok({ items: [], total: 0, page: 1, pageSize: 20 }),
    [`GET /public/facilities/${FACILITY.id}`]: ok({
      facility: { ...FACILITY, pincode: '500003', city: 'Secunderabad' },
    }),
    'GET /public/stock/availability': (request) =>
      ok(AVAILABILITY(request.query.get('bloodType') as BloodType)),
    ...server,
  });
  renderRoutes(routes, { path: '/hospital/dashboard', flags: { inventoryManagement: true } });
  await screen.findByRole('heading', { level: 1, name: 'Hospital Dashboard' }, { timeout: 15_000 });
  return { api, user: userEvent.setup() };
}

describe('/hospital/dashboard nearby stock', { timeout: 30_000 }, () => {
  it('highlights a group the centre has run out of, with the centres near it holding it', async () => {
    const { api } = await renderDashboard({
      'GET /hospital/stock': ownStock({ 'O-': { units: 0 } }),
    });
    const highlight = await screen.findByRole('region', {
      name: 'You have no O- packed red cells: nearby centres holding it',
    });
    // The finder is preset to the group and the centre's own PIN code, and has searched.
    expect(await within(highlight).findByText('Asian Blood Bank (O-)')).toBeVisible();
    expect(within(highlight).getByRole('combobox', { name: /Blood group needed/ })).toHaveValue(
      'O-',
    );
    expect(within(highlight).getByRole('textbox', { name: /PIN code or place/ })).toHaveValue(
      '500003',
    );
    const call = api.callsTo('GET /public/stock/availability')[0]!;
    expect(call.query.get('bloodType')).toBe('O-');
    expect(call.query.get('pincode')).toBe('500003');
    expect(screen.queryByText('Find blood at other centres')).not.toBeInTheDocument();
  });

  it('counts a stale figure as run out, and switches between the groups gone', async () => {
    const { user } = await renderDashboard({
      'GET /hospital/stock': ownStock({
        'A+': { units: 0 },
        'O-': { units: 4, updatedAt: DAY_AGO },
      }),
    });
    await screen.findByRole('region', {
      name: 'You have no A+ packed red cells: nearby centres holding it',
    });
    expect(
      screen.getByText(
        'No fresh packed red cells of A+, O-. Choose a group to see who holds it near you.',
      ),
    ).toBeVisible();
    const groups = screen.getByRole('group', { name: 'Blood group you have run out of' });
    expect(within(groups).getByRole('button', { name: 'A+' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(groups).getByRole('button', { name: 'O-' }));
    const highlight = await screen.findByRole('region', {
      name: 'You have no O- packed red cells: nearby centres holding it',
    });
    expect(await within(highlight).findByText('Asian Blood Bank (O-)')).toBeVisible();
  });

  it('keeps the finder folded away while every group is in stock', async () => {
    const { api } = await renderDashboard({ 'GET /hospital/stock': ownStock({}) });
    const summary = await screen.findByText('Find blood at other centres');
    expect(summary.closest('details')).not.toHaveAttribute('open');
    expect(screen.queryByRole('region', { name: /^You have no/ })).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /hospital/stock')).toHaveLength(1));
    expect(api.callsTo('GET /public/stock/availability')).toHaveLength(0);
  });

  it('keeps the finder folded away for an account not linked to a centre', async () => {
    await renderDashboard({
      'GET /hospital/stock': { status: 403, error: { code: 'FORBIDDEN' } },
    });
    expect(await screen.findByText('Find blood at other centres')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^You have no/ })).not.toBeInTheDocument();
  });
});
