import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HOUR, type Facility, type StockAvailability, type StockCentre } from '@bdms/shared';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { routes } from '../router';

const TWO_HOURS_AGO = new Date(Date.now() - 2 * HOUR).toISOString();
// The server only lists fresh figures; a reply kept open past 24 hours is one this old.
const DAY_AND_HOUR_AGO = new Date(Date.now() - 25 * HOUR).toISOString();

function facility(overrides: Partial<Facility> & Pick<Facility, 'id' | 'name'>): Facility {
  return {
    category: 'Government',
    address: 'Musheerabad',
    city: 'Secunderabad',
    district: 'HYDERABAD',
    state: 'Telangana',
    pincode: '500003',
    phone: '040 27505566',
    mobile: null,
    email: null,
    website: null,
    latitude: 17.42323,
    longitude: 78.504138,
    components: true,
    apheresis: false,
    serviceTime: '24x7',
    is24x7: true,
    ...overrides,
  };
}

function centre(base: Facility, distanceKm: number, stock: StockCentre['stock']): StockCentre {
  return { ...base, latitude: 17.4, longitude: 78.5, distanceKm, stock };
}

const ASIAN = facility({ id: 'bb-2250', name: 'Asian Blood Bank', category: 'Charity' });
const GANDHI = facility({ id: 'bb-2292', name: 'Gandhi Hospital Blood Bank' });

const ORIGIN = {
  latitude: 17.52439,
  longitude: 78.61415,
  source: 'pincode',
  pincode: '500001',
  district: 'Hyderabad',
  state: 'Telangana',
  place: null,
  confidence: 'high',
  approximate: false,
  requestedRadiusKm: 25,
  radiusKm: 25,
} as StockAvailability['origin'];

const O_NEG: StockAvailability = {
  origin: ORIGIN,
  bloodType: 'O-',
  component: 'prbc',
  rule: 'red_cells',
  compatibleTypes: [],
  items: [
    centre(ASIAN, 7.8, [
      { bloodType: 'O-', units: 3, expiringUnits: null, updatedAt: TWO_HOURS_AGO },
    ]),
    centre(GANDHI, 12.4, [
      { bloodType: 'O-', units: 1, expiringUnits: null, updatedAt: DAY_AND_HOUR_AGO },
    ]),
  ],
  compatible: [],
};

function renderDirectory(path: string, server: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /public/facilities/facets': ok(undefined),
    'GET /public/facilities/directory': ok({ items: [], total: 0, page: 1, pageSize: 20 }),
    'GET /public/facilities/nearby': ok({ items: [], origin: ORIGIN }),
    'GET /public/stock/availability': ok(O_NEG),
    ...server,
  });
  const rendered = renderRoutes(routes, { path, flags: { inventoryManagement: true } });
  return { ...rendered, api, user: userEvent.setup() };
}

function cards(): HTMLElement[] {
  return screen.queryAllByRole('article');
}

describe('/blood-banks with the stock filter', { timeout: 30_000 }, () => {
  it('lists the centres holding the group near the PIN, nearest first, with units and their age', async () => {
    const { api } = renderDirectory('/blood-banks?pin=500001&blood=O-');
    expect(
      await screen.findByRole(
        'heading',
        { level: 2, name: 'Holding O- Packed red cells now' },
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(
      await screen.findByText(
        'Showing blood banks near PIN 500001 (Hyderabad, Telangana). 2 blood centres within 25 km hold it now.',
      ),
    ).toBeVisible();
    await waitFor(() => expect(cards()).toHaveLength(2));
    const [asian, gandhi] = cards();
    expect(within(asian!).getByRole('heading', { level: 3 })).toHaveTextContent('Asian Blood Bank');
    expect(within(asian!).getByText('O- Packed red cells: 3 units')).toBeVisible();
    expect(within(asian!).getByText('Updated 2 hours ago')).toBeVisible();
    expect(within(asian!).queryByText('Stale')).not.toBeInTheDocument();
    expect(within(asian!).getByText('7.8 km away')).toBeVisible();
    // The directory's card: category and services too.
    expect(within(asian!).getByText('Charity')).toBeVisible();
    expect(within(gandhi!).getByText('O- Packed red cells: 1 unit')).toBeVisible();
    expect(within(gandhi!).getByText('Updated yesterday')).toBeVisible();
    expect(within(gandhi!).getByText('Stale')).toBeVisible();

    const call = api.callsTo('GET /public/stock/availability')[0]!;
    expect(call.query.get('bloodType')).toBe('O-');
    expect(call.query.get('component')).toBe('prbc');
    expect(call.query.get('pincode')).toBe('500001');
    expect(call.query.get('radiusKm')).toBe('25');
    expect(api.callsTo('GET /public/facilities/nearby')).toHaveLength(0);
    expect(screen.getByText(/cross-matches before issuing/)).toBeVisible();
  });

  it('shows the units and their age in the map marker popups', async () => {
    const { user } = renderDirectory('/blood-banks?pin=500001&blood=O-');
    await waitFor(() => expect(cards()).toHaveLength(2), { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: 'Show map' }));
    const map = await screen.findByRole(
      'region',
      { name: 'Map of the blood banks in the list' },
      { timeout: 15_000 },
    );
    // The origin first, then the centres in list order.
    const markers = map.querySelectorAll('path.leaflet-interactive');
    expect(markers).toHaveLength(3);
    await user.click(markers[2]!);
    const popup = await waitFor(() => {
      const element = map.querySelector<HTMLElement>('.leaflet-popup-content');
      expect(element).not.toBeNull();
      return element!;
    });
    expect(within(popup).getByRole('link', { name: 'Gandhi Hospital Blood Bank' })).toBeVisible();
    expect(within(popup).getByText('12 km away')).toBeVisible();
    expect(within(popup).getByText('O- Packed red cells: 1 unit')).toBeVisible();
    expect(within(popup).getByText('Updated yesterday')).toBeVisible();
    expect(within(popup).getByText('Stale')).toBeVisible();
  });

  it('turns on from the filters, keeps group and component in the address, and turns off', async () => {
    const { user, router, api } = renderDirectory('/blood-banks?pin=500001');
    const group = await screen.findByRole('combobox', { name: 'Blood group' }, { timeout: 15_000 });
    await user.selectOptions(group, 'O-');
    await waitFor(() => expect(router.state.location.search).toBe('?pin=500001&blood=O-'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Component' }), 'Platelets');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?pin=500001&blood=O-&component=platelets'),
    );
    await waitFor(() =>
      expect(
        api.callsTo('GET /public/stock/availability').map((call) => call.query.get('component')),
      ).toContain('platelets'),
    );
    await user.click(screen.getAllByRole('button', { name: 'Show every blood bank' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe('?pin=500001'));
  });

  it('narrows the centres by the other filters chosen', async () => {
    renderDirectory('/blood-banks?pin=500001&blood=O-&category=Charity');
    expect(
      await screen.findByText(/1 blood centre within 25 km holds it now\./, undefined, {
        timeout: 15_000,
      }),
    ).toBeVisible();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]).toHaveTextContent('Asian Blood Bank');
  });

  it('asks for a place before searching stock', async () => {
    const { api } = renderDirectory('/blood-banks?blood=AB-');
    expect(
      await screen.findByText(
        'Enter a PIN code or place, or use your location, to see who holds AB- Packed red cells now.',
        undefined,
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(api.callsTo('GET /public/stock/availability')).toHaveLength(0);
  });

  it('says when no centre near holds the group', async () => {
    renderDirectory('/blood-banks?pin=500001&blood=O-', {
      'GET /public/stock/availability': ok({ ...O_NEG, items: [] }),
    });
    expect(
      await screen.findByText(
        'No blood centre within 25 km has confirmed O- Packed red cells in the last 24 hours. Call the blood banks near you.',
        undefined,
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Search within 50 km' })).toBeVisible();
  });

  it('ignores the stock filter while inventoryManagement is off', async () => {
    const api = mockApi({
      'GET /public/facilities/facets': ok(undefined),
      'GET /public/facilities/nearby': ok({
        items: [{ ...ASIAN, distanceKm: 7.8 }],
        origin: ORIGIN,
      }),
    });
    renderRoutes(routes, { path: '/blood-banks?pin=500001&blood=O-' });
    expect(
      await screen.findByRole(
        'heading',
        { level: 2, name: 'Nearest blood banks' },
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Blood group' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /public/stock/availability')).toHaveLength(0);
  });
});
