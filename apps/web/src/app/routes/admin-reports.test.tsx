import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonthlyReport } from '@bdms/shared';
import { ADMIN } from '../../features/admin/test/fixtures';
import { recentMonths } from '../../features/admin/components/reports/monthly-report';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { seedSession } from '../../test/session';
import { routes } from '../router';

function makeReport(month: string): MonthlyReport {
  return {
    month,
    from: '2026-02-28T18:30:00.000Z',
    until: '2026-03-31T18:30:00.000Z',
    complete: true,
    totals: { registrations: 1234, approvals: 56, requests: 78, donations: 90, donationUnits: 95 },
    requestsByUrgency: {
      urgent: { open: 1, fulfilled: 40, cancelled: 2, expired: 3 },
      critical: { open: 0, fulfilled: 30, cancelled: 1, expired: 1 },
    },
    firstAcceptance: { accepted: 64, medianMinutes: 42.5, averageMinutes: 61 },
    byState: [
      { state: 'Maharashtra', registrations: 700, approvals: 30, requests: 50, donations: 60 },
      { state: null, registrations: 4, approvals: 0, requests: 0, donations: 0 },
    ],
    days: [
      { date: `${month}-01`, registrations: 40, requests: 3, donations: 2 },
      { date: `${month}-02`, registrations: 60, requests: 5, donations: 4 },
    ],
  };
}

async function renderReports(
  flags: { analyticsReporting: boolean },
  path = '/admin/reports',
  server: Record<string, MockRoute> = {},
) {
  await seedSession(ADMIN);
  const api = mockApi({
    'GET /auth/me': ok({ user: ADMIN }),
    'GET /reports/monthly': (request) => ok(makeReport(request.query.get('month') ?? '2026-03')),
    ...server,
  });
  renderRoutes(routes, { path, flags });
  await screen.findByRole('heading', { level: 1, name: 'Monthly Report' });
  return { api, user: userEvent.setup() };
}

function stat(label: string): string | null | undefined {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement?.querySelector('dd')?.textContent;
}

describe('/admin/reports (analyticsReporting)', { timeout: 30_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('says the reports are off, asks nothing and lists no menu entry while the flag is off', async () => {
    const { api } = await renderReports({ analyticsReporting: false });
    expect(await screen.findByText('Monthly reports are switched off')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Administration' });
    expect(within(nav).queryByRole('link', { name: 'Monthly report' })).toBeNull();
    expect(api.callsTo('GET /reports/monthly')).toHaveLength(0);
  });

  it('shows the month asked for in the address, its figures, states and outcomes, with the flag on', async () => {
    const { api, user } = await renderReports(
      { analyticsReporting: true },
      '/admin/reports?month=2026-03',
    );
    const nav = screen.getByRole('navigation', { name: 'Administration' });
    expect(within(nav).getByRole('link', { name: 'Monthly report' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await screen.findByText('The month in figures');
    expect(api.callsTo('GET /reports/monthly')[0]!.query.get('month')).toBe('2026-03');
    expect(stat('Donor registrations')).toBe('1,234');
    expect(stat('Donors approved')).toBe('56');
    expect(stat('Median')).toBe('42.5 min');
    const states = screen.getByRole('table', { name: 'By state' });
    expect(within(states).getByRole('rowheader', { name: 'Maharashtra' })).toBeInTheDocument();
    expect(within(states).getByRole('rowheader', { name: 'Not given' })).toBeInTheDocument();
    const outcomes = screen.getByRole('table', { name: 'Requests by urgency and outcome' });
    const critical = within(outcomes).getByRole('row', { name: /Critical/ });
    expect(
      within(critical)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['0', '30', '1', '1', '32']);

    const months = recentMonths();
    await user.selectOptions(screen.getByLabelText('Month'), months[0]!);
    await vi.waitFor(() =>
      expect(api.callsTo('GET /reports/monthly').map((call) => call.query.get('month'))).toContain(
        months[0],
      ),
    );
  });

  it('saves the PDF in the reader’s language under the server’s name', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:pdf');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    const { api, user } = await renderReports(
      { analyticsReporting: true },
      '/admin/reports?month=2026-03',
      {
        'GET /reports/monthly.pdf': {
          status: 200,
          data: 'pdf',
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="report-2026-03.pdf"',
          },
        },
      },
    );
    await screen.findByText('The month in figures');
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Saved report-2026-03.pdf.')).toBeInTheDocument();
    const call = api.callsTo('GET /reports/monthly.pdf')[0]!;
    expect(call.query.get('month')).toBe('2026-03');
    expect(call.query.get('lang')).toBe('en');
    expect(saved).toEqual(['report-2026-03.pdf']);
  });
});
