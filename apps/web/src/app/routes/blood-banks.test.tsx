import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Facility, FacilityFacets } from '@bdms/shared';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { routes } from '../router';

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

const GANDHI = facility({
  id: 'bb-2292',
  name: 'Gandhi Hospital Blood Bank',
  mobile: '9848250147',
  apheresis: true,
});
const ASIAN = facility({
  id: 'bb-2250',
  name: 'Asian Blood Bank',
  category: 'Charity',
  phone: null,
  mobile: '9866192213',
  components: false,
});
const KERALA = facility({
  id: 'bb-900',
  name: 'Medical College Blood Bank',
  city: 'Thiruvananthapuram',
  district: 'THIRUVANANTHAPURAM',
  state: 'Kerala',
  phone: '0471 2528386, 2528387',
});

const FACETS: FacilityFacets = {
  total: 2823,
  withLocation: 2714,
  states: [
    {
      name: 'Kerala',
      count: 180,
      districts: [{ name: 'THIRUVANANTHAPURAM', count: 30 }],
    },
    {
      name: 'Telangana',
      count: 149,
      districts: [
        { name: 'HYDERABAD', count: 69 },
        { name: 'KHAMMAM', count: 11 },
      ],
    },
  ],
  categories: [
    { name: 'Government', count: 1055 },
    { name: 'Private', count: 999 },
    { name: 'Charity', count: 690 },
  ],
  components: 1151,
  apheresis: 414,
  open24x7: 2345,
};

const NEAR_500001 = {
  items: [
    { ...ASIAN, distanceKm: 7.8 },
    { ...GANDHI, distanceKm: 12.4 },
  ],
  origin: {
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
  },
};

function directoryPage(items: Facility[], total = items.length) {
  return { items, total, page: 1, pageSize: 20 };
}

function renderDirectory(
  server: Record<string, MockRoute> = {},
  { path = '/blood-banks', locationDetection = false } = {},
) {
  const api = mockApi({
    'GET /public/facilities/facets': ok(FACETS),
    'GET /public/facilities/directory': ok(directoryPage([GANDHI, KERALA], 2823)),
    ...server,
  });
  const rendered = renderRoutes(routes, { path, flags: { locationDetection } });
  return { ...rendered, api, user: userEvent.setup() };
}

/** The result cards' names, in order. */
function cardNames(): string[] {
  return screen
    .queryAllByRole('article')
    .map((card) => within(card).getByRole('heading', { level: 3 }).textContent ?? '');
}

/** The result cards are drawn in the background (after the count): wait for these names. */
async function expectCards(names: string[]): Promise<void> {
  await waitFor(() => expect(cardNames()).toEqual(names));
}

// The first render waits for the lazy route's modules, which is slow on a busy machine.
describe('/blood-banks', { timeout: 20_000 }, () => {
  it('shows the data notice, the directory and its count, with tap-to-call numbers', async () => {
    renderDirectory();
    expect(await screen.findByRole('heading', { level: 1, name: 'Blood Banks' })).toBeVisible();
    expect(screen.getByText('This directory dates from April 2018.')).toBeVisible();
    expect(
      screen.getByText('Details may have changed since then. Call to confirm before you go.'),
    ).toBeVisible();
    expect(
      screen.getByRole('link', { name: 'Government Open Data License – India (GODL)' }),
    ).toHaveAttribute('href', 'https://data.gov.in/government-open-data-license-india');
    expect(screen.getByText(/India Post's All India Pincode Directory/)).toBeVisible();

    expect(await screen.findByText('2,823 blood banks')).toBeVisible();
    await expectCards(['Gandhi Hospital Blood Bank', 'Medical College Blood Bank']);
    expect(screen.getByRole('link', { name: 'Gandhi Hospital Blood Bank' })).toHaveAttribute(
      'href',
      '/blood-banks/bb-2292',
    );
    expect(screen.getByRole('link', { name: 'Call 040 27505566' })).toHaveAttribute(
      'href',
      'tel:04027505566',
    );
    // "0471 2528386, 2528387": the abbreviated second number is expanded, and callable.
    expect(screen.getByRole('link', { name: 'Call 0471 2528387' })).toHaveAttribute(
      'href',
      'tel:04712528387',
    );
    const gandhi = screen.getAllByRole('article')[0]!;
    expect(within(gandhi).getByText('Government')).toBeVisible();
    expect(within(gandhi).getByText('Components')).toBeVisible();
    expect(within(gandhi).getByText('Apheresis')).toBeVisible();
    expect(within(gandhi).getByText('24×7')).toBeVisible();
    expect(within(gandhi).getByText('Secunderabad, Hyderabad, Telangana 500003')).toBeVisible();
  });

  it('finds the nearest blood banks to a PIN code, nearest first, with distances', async () => {
    const { user, api, router } = renderDirectory({
      'GET /public/facilities/nearby': ok(NEAR_500001),
    });
    const pin = await screen.findByLabelText('PIN code or place');
    await user.type(pin, '50001');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));
    expect(pin).toHaveAccessibleDescription(
      expect.stringContaining(
        'Enter a 6-digit PIN code or a place name, for example 500001 or Koramangala.',
      ),
    );
    expect(api.callsTo('GET /public/facilities/nearby')).toHaveLength(0);

    await user.clear(pin);
    await user.type(pin, '500001');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));

    expect(
      await screen.findByText(
        'Showing blood banks near PIN 500001 (Hyderabad, Telangana). 2 within 25 km, nearest first.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Nearest blood banks' })).toBeVisible();
    await expectCards(['Asian Blood Bank', 'Gandhi Hospital Blood Bank']);
    expect(screen.getByText('7.8 km away')).toBeVisible();
    expect(screen.getByText('12 km away')).toBeVisible();
    const call = api.callsTo('GET /public/facilities/nearby')[0]!;
    expect(call.query.get('pincode')).toBe('500001');
    expect(call.query.get('radiusKm')).toBe('25');
    expect(call.query.has('lat')).toBe(false);
    expect(router.state.location.search).toBe('?pin=500001');
    // The card links back to this view.
    await user.click(screen.getByRole('link', { name: 'Asian Blood Bank' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blood-banks/bb-2250'));
    expect(router.state.location.state).toEqual({ from: '/blood-banks?pin=500001' });
  });

  it('says when it does not know a PIN code', async () => {
    const { user } = renderDirectory({
      'GET /public/facilities/nearby': fail(404, 'NOT_FOUND'),
    });
    await user.type(await screen.findByLabelText('PIN code or place'), '100000');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));
    expect(
      await screen.findByText(
        "We don't know the PIN code 100000. Check it, or search by city or district instead.",
      ),
    ).toBeVisible();
    expect(screen.getByLabelText('PIN code or place')).toHaveAccessibleDescription(
      expect.stringContaining("We don't know this PIN code."),
    );
  });

  it('says "near PIN 500003, approximate" and how far it searched when the PIN point is uncertain', async () => {
    const { user } = renderDirectory({
      'GET /public/facilities/nearby': ok({
        ...NEAR_500001,
        origin: {
          ...NEAR_500001.origin,
          pincode: '500003',
          confidence: 'low',
          approximate: true,
          radiusKm: 50,
        },
      }),
    });
    await user.type(await screen.findByLabelText('PIN code or place'), '500003');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));
    expect(
      await screen.findByText(
        'Showing blood banks near PIN 500003, approximate (Hyderabad, Telangana). Its location is ' +
          'not exact, so we searched up to 50 km. 2 within 50 km, nearest first.',
      ),
    ).toBeVisible();
  });

  it('finds blood banks near a place name typed in the PIN box, and keeps it in the address', async () => {
    const { user, api, router } = renderDirectory({
      'GET /public/facilities/nearby': (request) =>
        request.query.get('place') === 'Atlantis'
          ? fail(404, 'NOT_FOUND')
          : ok({
              ...NEAR_500001,
              origin: {
                ...NEAR_500001.origin,
                source: 'place',
                pincode: '560034',
                district: 'Bengaluru Urban',
                state: 'Karnataka',
                place: 'Koramangala',
              },
            }),
    });
    const box = await screen.findByLabelText('PIN code or place');
    await user.type(box, 'Koramangala');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));
    expect(
      await screen.findByText(
        'Showing blood banks near Koramangala (Bengaluru Urban, Karnataka). 2 within 25 km, nearest first.',
      ),
    ).toBeVisible();
    const call = api.callsTo('GET /public/facilities/nearby')[0]!;
    expect(call.query.get('place')).toBe('Koramangala');
    expect(call.query.has('pincode')).toBe(false);
    expect(router.state.location.search).toBe('?place=Koramangala');

    await user.clear(box);
    await user.type(box, 'Atlantis');
    await user.click(screen.getByRole('button', { name: 'Find blood banks' }));
    expect(await screen.findByText("We don't know a place called “Atlantis”.")).toBeVisible();
  });

  it('suggests a larger radius when nothing is near enough', async () => {
    const { user, api } = renderDirectory(
      {
        'GET /public/facilities/nearby': (request) =>
          ok(
            request.query.get('radiusKm') === '50'
              ? NEAR_500001
              : { items: [], origin: NEAR_500001.origin },
          ),
      },
      { path: '/blood-banks?pin=500001&radius=25' },
    );
    expect(await screen.findByText('No blood banks found within 25 km.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Search within 50 km' }));
    expect(await screen.findByText(/2 within 50 km, nearest first\./)).toBeVisible();
    expect(api.callsTo('GET /public/facilities/nearby').at(-1)!.query.get('radiusKm')).toBe('50');
    expect(screen.getByLabelText('Within')).toHaveValue('50');
  });

  it('searches 300 ms after typing stops, with the filters, and keeps it in the address', async () => {
    const { user, api, router } = renderDirectory(
      { 'GET /public/facilities/search': ok({ items: [{ ...GANDHI, score: 0.88 }] }) },
      { path: '/blood-banks?state=Telangana' },
    );
    await user.type(
      await screen.findByLabelText('Name, city or district'),
      'Gandhi hospital hyderbad',
    );
    expect(
      await screen.findByText('1 blood bank matches “Gandhi hospital hyderbad”.'),
    ).toBeVisible();
    const searches = api.callsTo('GET /public/facilities/search');
    // Typing produced one call, for the whole text, not one per key.
    expect(searches).toHaveLength(1);
    expect(searches[0]!.query.get('q')).toBe('Gandhi hospital hyderbad');
    expect(searches[0]!.query.get('state')).toBe('Telangana');
    await expectCards(['Gandhi Hospital Blood Bank']);
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe(
      'Gandhi hospital hyderbad',
    );
  });

  it('narrows the directory by state, then district, and clears the filters', async () => {
    const { user, api, router } = renderDirectory({
      'GET /public/facilities/directory': (request) =>
        ok(
          request.query.get('state') === 'Kerala'
            ? directoryPage([KERALA], 180)
            : directoryPage([GANDHI, KERALA], 2823),
        ),
    });
    await screen.findByText('2,823 blood banks');
    const district = screen.getByLabelText(/^District/);
    expect(district).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('State or union territory'), 'Kerala');
    expect(await screen.findByText('180 blood banks')).toBeVisible();
    await expectCards(['Medical College Blood Bank']);
    expect(api.callsTo('GET /public/facilities/directory').at(-1)!.query.get('state')).toBe(
      'Kerala',
    );
    expect(router.state.location.search).toBe('?state=Kerala');
    expect(screen.getByRole('option', { name: 'Kerala (180)' })).toBeInTheDocument();

    expect(district).toBeEnabled();
    await user.selectOptions(district, 'THIRUVANANTHAPURAM');
    expect(screen.getByRole('option', { name: 'Thiruvananthapuram (30)' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Apheresis/ }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?state=Kerala&district=THIRUVANANTHAPURAM&apheresis=true',
      ),
    );
    const last = api.callsTo('GET /public/facilities/directory').at(-1)!;
    expect(last.query.get('district')).toBe('THIRUVANANTHAPURAM');
    expect(last.query.get('apheresis')).toBe('true');

    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('2,823 blood banks')).toBeVisible();
  });

  it('finds blood banks near the browser location when the flag allows it', async () => {
    const getCurrentPosition = vi.fn((success: PositionCallback) =>
      success({ coords: { latitude: 17.4239, longitude: 78.5041 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const { user, api, router } = renderDirectory(
      {
        'GET /public/facilities/nearby': ok({
          ...NEAR_500001,
          origin: { ...NEAR_500001.origin, source: 'point', pincode: null },
        }),
      },
      { locationDetection: true },
    );
    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(
      await screen.findByText(
        'Showing blood banks near your location. 2 within 25 km, nearest first.',
      ),
    ).toBeVisible();
    const call = api.callsTo('GET /public/facilities/nearby')[0]!;
    expect(call.query.get('lat')).toBe('17.4239');
    expect(call.query.get('lng')).toBe('78.5041');
    expect(call.query.has('pincode')).toBe(false);
    // The location is not written into the (shareable) address.
    expect(router.state.location.search).toBe('');
  });

  it('explains a refused location', async () => {
    const getCurrentPosition = vi.fn((_: PositionCallback, failure: PositionErrorCallback) =>
      failure({ code: 1, PERMISSION_DENIED: 1, TIMEOUT: 3 } as GeolocationPositionError),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const { user } = renderDirectory({}, { locationDetection: true });
    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(await screen.findByText(/Location access was blocked/)).toBeVisible();
  });

  it('hides "Use my location" while locationDetection is off', async () => {
    renderDirectory();
    await screen.findByText('2,823 blood banks');
    expect(screen.queryByRole('button', { name: 'Use my location' })).not.toBeInTheDocument();
  });

  it('shows an error with a way to try again', async () => {
    let attempts = 0;
    const { user } = renderDirectory({
      'GET /public/facilities/directory': () => {
        attempts += 1;
        return attempts === 1 ? fail(500, 'INTERNAL_ERROR') : ok(directoryPage([GANDHI]));
      },
    });
    expect(
      await screen.findByText('Something went wrong on our side. Please try again later.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('1 blood bank')).toBeVisible();
  });
});
