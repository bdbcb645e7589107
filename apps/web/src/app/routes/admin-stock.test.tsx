import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BLOOD_TYPES, DAY, HOUR, type StockSummary } from '@bdms/shared';
import { ADMIN, dashboardRoutes } from '../../features/admin/test/fixtures';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { seedSession } from '../../test/session';
import { routes } from '../router';

const NOW = Date.now();
const QUIET_AT = new Date(NOW - 3 * DAY - 2 * HOUR).toISOString();
const STALE_AT = new Date(NOW - 30 * HOUR).toISOString();

function groups(figures: Partial<Record<string, [number, number]>>): StockSummary['national'] {
  return BLOOD_TYPES.map((bloodType) => ({
    bloodType,
    units: figures[bloodType]?.[0] ?? 0,
    centres: figures[bloodType]?.[1] ?? 0,
  }));
}

function summary(component: StockSummary['component']): StockSummary {
  const units = component === 'prbc' ? 1 : 10;
  return {
    component,
    generatedAt: new Date(NOW).toISOString(),
    reportingCentres: 3,
    freshCentres: 1,
    national: groups({ 'O-': [4 * units, 1], 'A+': [12 * units, 1] }),
    states: [
      { state: 'Maharashtra', groups: groups({ 'O-': [4 * units, 1], 'A+': [12 * units, 1] }) },
    ],
    staleCentres: [
      {
        facilityId: 'bb-1',
        name: 'Far Centre',
        state: 'Delhi',
        district: 'New Delhi',
        updatedAt: QUIET_AT,
      },
      {
        facilityId: 'bb-2',
        name: 'Near Centre',
        state: 'Delhi',
        district: 'New Delhi',
        updatedAt: STALE_AT,
      },
    ],
    quietCentres: [
      {
        facilityId: 'bb-1',
        name: 'Far Centre',
        state: 'Delhi',
        district: 'New Delhi',
        updatedAt: QUIET_AT,
      },
    ],
  };
}

async function renderDashboard(flags: { inventoryManagement: boolean }) {
  await seedSession(ADMIN);
  const server: Record<string, MockRoute> = {
    ...dashboardRoutes(),
    'GET /admin/stock/summary': (request) =>
      ok(summary((request.query.get('component') ?? 'prbc') as StockSummary['component'])),
    'GET /admin/stock/summary.csv': {
      status: 200,
      data: 'csv',
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="blood-stock-ffp-2026-11-26.csv"',
      },
    },
  };
  const api = mockApi(server);
  renderRoutes(routes, { path: '/admin', flags });
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' }, { timeout: 15_000 });
  return { api, user: userEvent.setup() };
}

/** A table row's cells: the area, then "units / centres" per group. */
function rowTexts(row: HTMLElement): string[] {
  return [...row.querySelectorAll('th, td')].map((cell) => {
    const centres = cell.querySelector('span')?.textContent;
    return centres ? `${cell.firstChild?.textContent} / ${centres}` : (cell.textContent ?? '');
  });
}

describe('/admin blood stock', { timeout: 30_000 }, () => {
  it('shows fresh units per group for India and each state, as a table and a chart', async () => {
    await renderDashboard({ inventoryManagement: true });
    const panel = await screen.findByRole('region', { name: 'Blood stock by blood group' });
    const table = await within(panel).findByRole('table', {
      name: 'Fresh units of Packed red cells by state and blood group, with the centres holding them',
    });
    const [, india, maharashtra] = within(table).getAllByRole('row');
    // Columns: area, A+, A-, B+, B-, AB+, AB-, O+, O-.
    expect(rowTexts(india!)).toEqual([
      'India',
      '12 / 1 centre',
      '0 / 0 centres',
      '0 / 0 centres',
      '0 / 0 centres',
      '0 / 0 centres',
      '0 / 0 centres',
      '0 / 0 centres',
      '4 / 1 centre',
    ]);
    expect(rowTexts(maharashtra!)[0]).toBe('Maharashtra');
    expect(rowTexts(maharashtra!)[8]).toBe('4 / 1 centre');
    expect(
      within(panel).getByText('1 of 3 reporting centres updated within 24 hours.'),
    ).toBeVisible();
    expect(
      within(panel).getByRole('img', {
        name: 'Fresh units in India by blood group: A+ 12, A- 0, B+ 0, B- 0, AB+ 0, AB- 0, O+ 0, O- 4.',
      }),
    ).toBeInTheDocument();
  });

  it('asks again for the component chosen', async () => {
    const { api, user } = await renderDashboard({ inventoryManagement: true });
    const panel = await screen.findByRole('region', { name: 'Blood stock by blood group' });
    await within(panel).findByRole('table');
    await user.selectOptions(within(panel).getByLabelText('Component'), 'Fresh frozen plasma');
    expect(
      await within(panel).findByRole('table', { name: /^Fresh units of Fresh frozen plasma/ }),
    ).toBeInTheDocument();
    expect(
      api.callsTo('GET /admin/stock/summary').map((call) => call.query.get('component')),
    ).toEqual(['prbc', 'ffp']);
  });

  it('lists only the centres that stopped updating, with their age and the Indian date', async () => {
    await renderDashboard({ inventoryManagement: true });
    const quiet = await screen.findByRole('region', { name: 'Centres that stopped updating' });
    const items = within(quiet).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    const date = new Intl.DateTimeFormat('en-IN', {
      dateStyle: 'medium',
      timeZone: 'Asia/Kolkata',
    }).format(new Date(QUIET_AT));
    // "23 Nov 2026": day, short month, year.
    expect(date).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(items[0]).toHaveTextContent('Far Centre');
    expect(items[0]).toHaveTextContent('New Delhi, Delhi');
    expect(items[0]).toHaveTextContent(`Last update 3 days ago (${date})`);
    expect(within(quiet).queryByText('Near Centre')).not.toBeInTheDocument();
  });

  it('downloads the CSV of the component shown under the server’s name', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:stock');
    URL.revokeObjectURL = vi.fn();
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, href: this.href });
    });
    const { api, user } = await renderDashboard({ inventoryManagement: true });
    const panel = await screen.findByRole('region', { name: 'Blood stock by blood group' });
    await within(panel).findByRole('table');
    await user.selectOptions(within(panel).getByLabelText('Component'), 'Fresh frozen plasma');
    await user.click(within(panel).getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Saved blood-stock-ffp-2026-11-26.csv.')).toBeInTheDocument();
    expect(api.callsTo('GET /admin/stock/summary.csv')[0]!.query.get('component')).toBe('ffp');
    expect(saved).toEqual([{ name: 'blood-stock-ffp-2026-11-26.csv', href: 'blob:stock' }]);
  });

  it('is not shown, nor asked for, while inventoryManagement is off', async () => {
    const { api } = await renderDashboard({ inventoryManagement: false });
    await screen.findByRole('region', { name: 'Donors' });
    await waitFor(() => expect(api.callsTo('GET /admin/donors/stats')).not.toHaveLength(0));
    expect(
      screen.queryByRole('region', { name: 'Blood stock by blood group' }),
    ).not.toBeInTheDocument();
    expect(api.callsTo('GET /admin/stock/summary')).toHaveLength(0);
  });
});
