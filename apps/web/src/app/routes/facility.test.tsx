import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Facility } from '@bdms/shared';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { routes } from '../router';

const GANDHI: Facility = {
  id: 'bb-2292',
  name: 'Gandhi Hospital Blood Bank',
  category: 'Government',
  address: '1st Floor, A block,\nMusheerabad, Secunderabad, Telangana',
  city: 'Secunderabad',
  district: 'HYDERABAD',
  state: 'Telangana',
  pincode: '500003',
  phone: '040 27505566, Extn: 401',
  mobile: '9848250147',
  email: 'gandhihospitalbloodbank@yahoo.com',
  website: 'www.gandhihospital.in',
  latitude: 17.42323,
  longitude: 78.504138,
  components: true,
  apheresis: null,
  serviceTime: '9 am to 5 pm (Sunday&#39;s closed)',
  is24x7: false,
};

function renderFacility(server: Record<string, MockRoute>, path = '/blood-banks/bb-2292') {
  const api = mockApi(server);
  return { ...renderRoutes(routes, { path }), api, user: userEvent.setup() };
}

describe('/blood-banks/:id', { timeout: 20_000 }, () => {
  it('shows the blood bank with tap-to-call numbers, directions and its services', async () => {
    renderFacility({ 'GET /public/facilities/bb-2292': ok({ facility: GANDHI }) });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gandhi Hospital Blood Bank' }),
    ).toBeVisible();
    await waitFor(() =>
      expect(document.title).toBe('Gandhi Hospital Blood Bank · Blood Donation Management System'),
    );
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'Blood bank in Secunderabad, Telangana: address, phone numbers, services and directions.',
    );
    expect(screen.getByRole('link', { name: 'Call 040 27505566, Extn: 401' })).toHaveAttribute(
      'href',
      'tel:04027505566',
    );
    expect(screen.getByRole('link', { name: 'Call 9848250147' })).toHaveAttribute(
      'href',
      'tel:9848250147',
    );
    const directions = screen.getByRole('link', { name: /^Directions/ });
    expect(directions).toHaveAttribute(
      'href',
      'https://www.google.com/maps/dir/?api=1&destination=17.42323%2C78.504138',
    );
    expect(directions).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'gandhihospitalbloodbank@yahoo.com' })).toHaveAttribute(
      'href',
      'mailto:gandhihospitalbloodbank@yahoo.com',
    );
    const website = screen.getByRole('link', { name: /^Website/ });
    expect(website).toHaveAttribute('href', 'https://www.gandhihospital.in/');
    expect(website).toHaveAttribute('rel', 'noopener noreferrer');
    expect(
      screen.getByText('1st Floor, A block, Musheerabad, Secunderabad, Telangana'),
    ).toBeVisible();
    expect(screen.getByText('Blood components').nextElementSibling).toHaveTextContent('Yes');
    expect(screen.getByText('Apheresis').nextElementSibling).toHaveTextContent('Not known');
    expect(screen.getByText('Opening hours').nextElementSibling).toHaveTextContent(
      "9 am to 5 pm (Sunday's closed)",
    );
    expect(screen.getByText('This directory dates from April 2018.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'All blood banks' })).toHaveAttribute(
      'href',
      '/blood-banks',
    );
  });

  it('sends directions to the address when the directory has no coordinates', async () => {
    renderFacility({
      'GET /public/facilities/bb-2292': ok({
        facility: { ...GANDHI, latitude: null, longitude: null, address: 'Musheerabad' },
      }),
    });
    const directions = await screen.findByRole('link', { name: /^Directions/ });
    const url = new URL(directions.getAttribute('href')!);
    expect(url.searchParams.get('destination')).toBe(
      'Gandhi Hospital Blood Bank, Musheerabad, Secunderabad, Hyderabad, Telangana 500003',
    );
    expect(screen.queryByRole('heading', { name: 'On the map' })).not.toBeInTheDocument();
  });

  it('goes back to the results the visitor came from, filters kept', async () => {
    const { user, router } = renderFacility(
      {
        'GET /public/facilities/facets': fail(500, 'INTERNAL_ERROR'),
        'GET /public/facilities/directory': ok({
          items: [GANDHI],
          total: 1,
          page: 1,
          pageSize: 20,
        }),
        'GET /public/facilities/bb-2292': ok({ facility: GANDHI }),
      },
      '/blood-banks?state=Telangana&components=true',
    );
    await user.click(await screen.findByRole('link', { name: 'Gandhi Hospital Blood Bank' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gandhi Hospital Blood Bank' }),
    ).toBeVisible();
    await user.click(screen.getByRole('link', { name: 'Back to your results' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blood-banks'));
    expect(router.state.location.search).toBe('?state=Telangana&components=true');
  });

  it('says so for an unknown blood bank, and for an address that is not one', async () => {
    renderFacility(
      { 'GET /public/facilities/bb-99999': fail(404, 'NOT_FOUND') },
      '/blood-banks/bb-99999',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Blood bank not found' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'All blood banks' })).toHaveAttribute(
      'href',
      '/blood-banks',
    );
  });

  it('does not call the server for an id that cannot exist', async () => {
    const { api } = renderFacility({}, '/blood-banks/not-an-id');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Blood bank not found' }),
    ).toBeVisible();
    expect(api.calls.filter((call) => call.path.startsWith('/public/facilities'))).toHaveLength(0);
  });
});
