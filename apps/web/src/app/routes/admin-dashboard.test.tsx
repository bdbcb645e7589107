import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEATURE_FLAG_NAMES, NOTIFICATION_SETTINGS_DEFAULTS } from '@bdms/shared';
import { FLAG_GROUPS } from '../../features/admin/components/dashboard/flags-panel';
import {
  ADMIN,
  dashboardRoutes,
  makeClientLog,
  makeFlags,
  SUMMARY,
} from '../../features/admin/test/fixtures';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { seedSession } from '../../test/session';
import { routes } from '../router';

async function renderDashboard(server: Record<string, MockRoute> = {}) {
  await seedSession(ADMIN);
  const api = mockApi({ ...dashboardRoutes(), ...server });
  const rendered = renderRoutes(routes, { path: '/admin' });
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
  return { ...rendered, api, user: userEvent.setup() };
}

/** The number shown for a statistic: the `dd` beside its `dt`. */
function stat(container: HTMLElement, label: string): string | null | undefined {
  const term = within(container).getByText(label, { selector: 'dt' });
  return term.parentElement?.querySelector('dd')?.textContent;
}

function section(name: string) {
  return screen.getByRole('region', { name });
}

/** The URLs fetch was called with, to read query strings. */
function requestedUrls(api: { spy: { mock: { calls: unknown[][] } } }): string[] {
  return api.spy.mock.calls.map(([input]) => String(input));
}

describe('/admin', () => {
  it('shows the donor numbers and the blood request summary', async () => {
    await renderDashboard();
    const donors = section('Donors');
    expect(await within(donors).findByText('1,287')).toBeInTheDocument();
    // Each number is read with its label (a description list).
    expect(stat(donors, 'Registered donors')).toBe('1,287');
    expect(stat(donors, 'Waiting for review')).toBe('14');
    expect(stat(donors, 'Available now')).toBe('512');
    expect(stat(donors, 'New in the last 7 days')).toBe('63');
    expect(stat(donors, 'Suspended')).toBe('29');
    expect(within(donors).getByRole('link', { name: 'Review donors' })).toHaveAttribute(
      'href',
      '/admin/verification',
    );

    const requests = section('Blood requests');
    await within(requests).findByText('Open critical requests');
    expect(stat(requests, 'Open critical requests')).toBe(String(SUMMARY.openCritical));
    expect(stat(requests, 'Fulfilled in the last 30 days')).toBe('37');
    expect(stat(requests, 'Typical time to fulfil')).toBe('5.5 hours');
    expect(document.title).toBe('Admin Dashboard · Blood Donation Management System');
  });

  it('fetches the analytics again for the chosen time range, 30 days by default', async () => {
    const { api, user } = await renderDashboard();
    const analytics = section('Activity over time');
    expect(
      await within(analytics).findByRole('img', { name: /^Donor registrations, last 30 days/ }),
    ).toBeInTheDocument();
    expect(requestedUrls(api).filter((url) => url.includes('/analytics/dashboard'))).toEqual([
      '/api/v1/analytics/dashboard?timeRange=30d',
    ]);
    expect(within(analytics).getByRole('radio', { name: 'last 30 days' })).toBeChecked();

    await user.click(within(analytics).getByRole('radio', { name: 'last 7 days' }));
    expect(
      await within(analytics).findByRole('img', { name: /^Donor registrations, last 7 days/ }),
    ).toBeInTheDocument();
    expect(requestedUrls(api)).toContain('/api/v1/analytics/dashboard?timeRange=7d');
  });

  it('gives every chart a spoken summary and a table of its numbers', async () => {
    const { user } = await renderDashboard();
    const analytics = section('Activity over time');
    const chart = await within(analytics).findByRole('img', { name: /^Donations, last 30 days/ });
    // 30 days: day 3 has 9 donations, the others 1 → 38 in total.
    expect(chart).toHaveAccessibleName(
      'Donations, last 30 days: 38 in total. Highest: 9 (3 January 2026).',
    );
    await user.click(within(analytics).getByText('Show the numbers: Donations'));
    const table = within(analytics).getByRole('table', { name: 'Donations' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByRole('row', { name: '3 January 2026 9' })).toBeInTheDocument();
    const bloodTypes = section('Approved donors by blood type');
    expect(within(bloodTypes).getByText('40 (40%)')).toBeInTheDocument();
  });

  it('says so when nothing has happened and no hospital exists yet', async () => {
    await renderDashboard();
    expect(
      await within(section('Recent activity')).findByText('Nothing has happened yet'),
    ).toBeInTheDocument();
    expect(
      await within(section('Hospital accounts')).findByText('No hospital accounts yet'),
    ).toBeInTheDocument();
  });

  it('explains, rather than failing, when the server has no blood request figures', async () => {
    await renderDashboard({ 'GET /admin/requests/summary': fail(404, 'NOT_FOUND') });
    expect(
      await within(section('Blood requests')).findByText(
        'Blood request figures are not available yet',
      ),
    ).toBeInTheDocument();
  });

  it('shows an error with a retry when a panel cannot load', async () => {
    let calls = 0;
    const { user } = await renderDashboard({
      'GET /admin/donors/stats': () => {
        calls += 1;
        return calls === 1 ? fail(500, 'INTERNAL_ERROR') : ok({ ...dashboardStats(), total: 7 });
      },
    });
    const donors = section('Donors');
    expect(
      await within(donors).findByText('Something went wrong on our side. Please try again later.'),
    ).toBeInTheDocument();
    await user.click(within(donors).getByRole('button', { name: 'Try again' }));
    expect(await within(donors).findByText('7')).toBeInTheDocument();
  });

  describe('notification settings', () => {
    it('refuses a radius of 0 with a message on the field, and sends nothing', async () => {
      const { api, user } = await renderDashboard();
      const settings = section('Notification settings');
      const radius = await within(settings).findByRole('spinbutton', { name: /Search radius/ });
      await user.clear(radius);
      await user.type(radius, '0');
      await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
      expect(radius).toHaveAccessibleDescription(
        expect.stringContaining('Enter a number from 1 to 200.'),
      );
      expect(radius).toHaveAttribute('aria-invalid', 'true');
      expect(radius).toHaveFocus();
      expect(api.callsTo('PUT /admin/notifications/settings')).toHaveLength(0);
    });

    it('saves every setting and confirms it', async () => {
      const { api, user } = await renderDashboard({
        'PUT /admin/notifications/settings': (request) => ok(request.body),
      });
      const settings = section('Notification settings');
      const radius = await within(settings).findByRole('spinbutton', { name: /Search radius/ });
      await user.clear(radius);
      await user.type(radius, '40');
      await user.click(within(settings).getByRole('checkbox', { name: 'SMS alerts' }));
      expect(
        within(settings).getByText('No SMS provider is configured: nothing is sent by SMS yet.'),
      ).toBeInTheDocument();
      await user.click(within(settings).getByRole('button', { name: 'Save settings' }));
      expect(await screen.findByText('Notification settings saved.')).toBeInTheDocument();
      // The daily budgets (SMS, WhatsApp, phone codes, answers to replies) are the Delivery
      // channels panel's: this form leaves them as they are.
      const {
        smsDailyBudget,
        whatsappDailyBudget,
        phoneCodeDailyBudget,
        replyAnswerDailyBudget,
        ...formSettings
      } = NOTIFICATION_SETTINGS_DEFAULTS;
      expect(smsDailyBudget).toBeGreaterThan(0);
      expect(whatsappDailyBudget).toBeGreaterThan(0);
      expect(phoneCodeDailyBudget).toBeGreaterThan(0);
      expect(replyAnswerDailyBudget).toBeGreaterThan(0);
      expect(api.callsTo('PUT /admin/notifications/settings')[0]!.body).toEqual({
        ...formSettings,
        smsEnabled: true,
        matchRadiusKm: 40,
      });
    });
  });

  describe('delivery channels', () => {
    it('shows the codes and reply answers sent today against their budgets, and saves a budget (#32 item 8)', async () => {
      const { api, user } = await renderDashboard({
        'GET /admin/notifications/channels': ok({
          channels: [
            {
              channel: 'sms',
              configured: true,
              enabled: true,
              failingSince: null,
              lastError: null,
              sentToday: 40,
              failedToday: 0,
              queued: 0,
              dailyBudget: 500,
              overBudgetToday: 0,
            },
          ],
          directBudgets: {
            codes: { sentToday: 1000, dailyBudget: 1000 },
            answers: { sentToday: 12, dailyBudget: 300 },
          },
        }),
        'PUT /admin/notifications/settings': (request) =>
          ok({ ...NOTIFICATION_SETTINGS_DEFAULTS, ...(request.body as object) }),
      });
      const panel = section('Delivery channels');
      const codes = (
        await within(panel).findByRole('heading', { name: 'One-time codes to phones' })
      ).closest('li')!;
      expect(stat(codes as HTMLElement, 'Sent today')).toBe('1,000 of 1,000');
      expect(within(codes as HTMLElement).getByText('Budget spent')).toBeInTheDocument();
      const answers = within(panel)
        .getByRole('heading', { name: 'Answers to SMS and WhatsApp replies' })
        .closest('li')! as HTMLElement;
      expect(stat(answers, 'Sent today')).toBe('12 of 300');
      expect(within(answers).queryByText('Budget spent')).toBeNull();
      const field = within(codes as HTMLElement).getByRole('textbox', { name: /Daily budget/ });
      await user.clear(field);
      await user.type(field, '2000');
      await user.click(within(codes as HTMLElement).getByRole('button', { name: 'Save budget' }));
      await waitFor(() =>
        expect(api.callsTo('PUT /admin/notifications/settings')[0]?.body).toEqual({
          phoneCodeDailyBudget: 2000,
        }),
      );
    });
  });

  describe('features', () => {
    it('has a line for every flag', () => {
      expect(FLAG_GROUPS.flatMap((group) => group.flags).sort()).toEqual(
        [...FEATURE_FLAG_NAMES].sort(),
      );
    });

    it('saves a switched flag with PUT and confirms it with a toast', async () => {
      const { api, user } = await renderDashboard({
        'PUT /admin/flags': (request) => ok(makeFlags(request.body as object)),
      });
      const features = section('Features');
      const emergency = await within(features).findByRole('switch', { name: 'Emergency requests' });
      expect(emergency).not.toBeChecked();
      expect(emergency).toHaveAccessibleDescription(/header's "Emergency Request" entry/);
      await user.click(emergency);
      expect(await screen.findByText('Emergency requests is now on.')).toBeInTheDocument();
      expect(api.callsTo('PUT /admin/flags').map((call) => call.body)).toEqual([
        { emergencyServices: true },
      ]);
      expect(emergency).toBeChecked();
    });

    it('says a provider channel that is on is not configured', async () => {
      await renderDashboard({ 'GET /admin/flags': ok(makeFlags({ smsNotifications: true })) });
      const features = section('Features');
      await within(features).findByRole('switch', { name: 'SMS notifications' });
      expect(within(features).getAllByText('Not configured')).toHaveLength(1);
      // Every flag says what it switches (issue #21): none is "reserved" any more.
      expect(
        within(features).getByRole('switch', { name: 'Sample data' }),
      ).toHaveAccessibleDescription(/Demo data/);
      expect(within(features).queryAllByText(/Reserved/)).toEqual([]);
    });
  });

  it('shows privacyProtection and homePageRedesign as always on, with switches that cannot be used', async () => {
    await renderDashboard();
    const features = section('Features');
    for (const name of ['Privacy protection', 'Home page redesign']) {
      const toggle = await within(features).findByRole('switch', { name });
      expect(toggle).toBeChecked();
      expect(toggle).toBeDisabled();
      expect(toggle).toHaveAccessibleDescription(/cannot be switched off/);
    }
    expect(
      within(features).getByRole('switch', { name: 'Advanced matching' }),
    ).toHaveAccessibleDescription(
      /then every type that can give to it where the exact type is short/,
    );
  });

  it("lists what people's browsers reported, newest first", async () => {
    const { api } = await renderDashboard({
      'GET /admin/client-logs': ok({
        items: [makeClientLog({ message: 'ChunkLoadError: Failed to load chunk donor-area' })],
        total: 1,
        page: 1,
        pageSize: 20,
      }),
    });
    const reports = section('Errors reported by browsers');
    expect(
      await within(reports).findByText('ChunkLoadError: Failed to load chunk donor-area'),
    ).toBeInTheDocument();
    expect(within(reports).getByText('/donor/history')).toBeInTheDocument();
    expect(api.callsTo('GET /admin/client-logs')[0]?.query.get('page')).toBe('1');
  });

  it('sends a test e-mail to the address given and shows the result', async () => {
    const { api, user } = await renderDashboard({
      'POST /admin/email/test': ok({ messageId: 'outbox-42', status: 'logged' }),
    });
    const email = section('E-mail');
    const address = await within(email).findByRole('textbox', { name: /Send to/ });
    expect(address).toHaveValue(ADMIN.email);
    await user.clear(address);
    await user.click(within(email).getByRole('button', { name: 'Send test e-mail' }));
    expect(address).toHaveAccessibleDescription(
      expect.stringContaining('Enter an e-mail address.'),
    );
    await user.type(address, 'ops@example.org');
    await user.click(within(email).getByRole('button', { name: 'Send test e-mail' }));
    expect(await within(email).findByText('Test e-mail kept in the outbox')).toBeInTheDocument();
    expect(within(email).getByText('Message ID: outbox-42')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/email/test')[0]!.body).toEqual({ email: 'ops@example.org' });
  });

  it('asks before disabling a hospital account', async () => {
    const hospital = {
      id: 'h-1',
      userId: 'u-h1',
      name: 'City Care Hospital',
      email: 'desk@citycare.example',
      phone: '+919000000001',
      city: 'Pune',
      state: 'Maharashtra',
      facilityId: null,
      disabled: false,
      createdAt: '2026-10-01T00:00:00.000Z',
    };
    const { api, user } = await renderDashboard({
      'GET /admin/hospitals': ok({ items: [hospital], total: 1, page: 1, pageSize: 10 }),
      'POST /admin/hospitals/h-1/disable': ok({ hospital: { ...hospital, disabled: true } }),
    });
    const hospitals = section('Hospital accounts');
    await user.click(
      await within(hospitals).findByRole('button', { name: 'Disable: City Care Hospital' }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Disable City Care Hospital?' });
    expect(api.callsTo('POST /admin/hospitals/h-1/disable')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('City Care Hospital was disabled.')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/hospitals/h-1/disable')).toHaveLength(1);
  });

  it(
    'shows a pending self-registration beside its directory entry, and verifies or rejects it',
    { timeout: 20_000 },
    async () => {
      const pendingHospital = {
        id: 'h-7',
        userId: 'u-h7',
        name: 'Osmania Blood Centre',
        email: 'blood.centre@osmania.example',
        phone: '+919848012345',
        city: 'Hyderabad',
        state: 'Telangana',
        facilityId: 'bb-2310',
        disabled: false,
        createdAt: '2026-11-20T00:00:00.000Z',
        verificationStatus: 'pending',
        registeredVia: 'self',
        licenceNumber: 'AP/28C/123/1996',
        contactName: 'Dr. Kavitha Rao',
        emailConfirmed: true,
        phoneConfirmed: false,
        verifiedAt: null,
        rejectionReason: null,
        claimedBy: [{ id: 'h-1', name: 'Osmania Hospital (old account)' }],
        directoryEntry: {
          id: 'bb-2310',
          name: 'Osmania General Hospital Blood Bank',
          address: 'Afzal Gunj',
          city: 'Hyderabad',
          district: 'Hyderabad',
          state: 'Telangana',
          pincode: '500012',
          phone: '040-24600146',
          mobile: null,
          email: null,
          category: 'Government',
          licenceNumber: 'AP/28C/123/1996',
          licenceObtained: '14.06.1996',
          licenceRenewed: null,
        },
      };
      const { api, user } = await renderDashboard({
        'GET /admin/hospitals': (request) =>
          ok({
            items: request.query.get('status') === 'pending' ? [pendingHospital] : [],
            total: request.query.get('status') === 'pending' ? 1 : 0,
            page: 1,
            pageSize: 10,
          }),
        'POST /admin/hospitals/h-7/verify': ok({
          hospital: { ...pendingHospital, verificationStatus: 'verified' },
        }),
        'POST /admin/hospitals/h-7/reject': (request) =>
          ok({
            hospital: {
              ...pendingHospital,
              verificationStatus: 'rejected',
              rejectionReason: (request.body as { reason: string }).reason,
            },
          }),
      });
      const hospitals = section('Hospital accounts');
      const pending = await within(hospitals).findByRole('region', {
        name: 'Registrations to verify (1)',
      });
      const entry = within(pending).getByRole('region', { name: 'Directory entry' });
      expect(within(entry).getByText('Osmania General Hospital Blood Bank')).toBeVisible();
      expect(within(entry).getByText('040-24600146')).toBeVisible();
      expect(within(entry).getByText('AP/28C/123/1996 · since 14.06.1996')).toBeVisible();
      const submitted = within(pending).getByRole('region', { name: 'Submitted' });
      expect(within(submitted).getByText('Dr. Kavitha Rao')).toBeVisible();
      expect(within(pending).getByText('Licence number matches the directory')).toBeVisible();
      expect(within(pending).getByText('E-mail: confirmed')).toBeVisible();
      expect(within(pending).getByText('Phone: not confirmed')).toBeVisible();
      expect(
        within(pending).getByText('Entry already claimed by Osmania Hospital (old account)'),
      ).toBeVisible();

      // Reject needs a reason; the reason is what is sent.
      await user.click(
        within(pending).getByRole('button', { name: 'Reject: Osmania Blood Centre' }),
      );
      let dialog = screen.getByRole('alertdialog', { name: 'Reject Osmania Blood Centre?' });
      await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
      expect(api.callsTo('POST /admin/hospitals/h-7/reject')).toHaveLength(0);
      await user.type(within(dialog).getByLabelText(/Reason/), 'Licence copy does not match.');
      await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
      expect(await screen.findByText('Osmania Blood Centre was rejected.')).toBeInTheDocument();
      expect(api.callsTo('POST /admin/hospitals/h-7/reject')[0]!.body).toEqual({
        reason: 'Licence copy does not match.',
      });

      await waitFor(() =>
        expect(screen.queryByRole('alertdialog', { name: /Reject/ })).not.toBeInTheDocument(),
      );
      await user.click(
        await within(section('Hospital accounts')).findByRole('button', {
          name: 'Verify: Osmania Blood Centre',
        }),
      );
      // Verifying gives something, so its dialog is a plain one (rejecting is an alert dialog).
      dialog = await screen.findByRole('dialog', { name: 'Verify Osmania Blood Centre?' });
      await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('Osmania Blood Centre is verified.')).toBeInTheDocument();
      expect(api.callsTo('POST /admin/hospitals/h-7/verify')).toHaveLength(1);
    },
  );

  it('checks a new hospital account before creating it', async () => {
    const { api, user } = await renderDashboard({
      'POST /admin/hospitals': (request) =>
        ok(
          {
            hospital: {
              id: 'h-2',
              userId: 'u-h2',
              disabled: false,
              createdAt: '2026-11-01T00:00:00Z',
              facilityId: null,
              ...(request.body as object),
            },
          },
          201,
        ),
    });
    const hospitals = section('Hospital accounts');
    await user.click(await within(hospitals).findByRole('button', { name: 'Add a hospital' }));
    await user.click(within(hospitals).getByRole('button', { name: 'Create account' }));
    const name = within(hospitals).getByRole('textbox', { name: /Hospital name/ });
    expect(name).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    expect(name).toHaveFocus();
    await user.type(name, 'Ruby Hall Clinic');
    await user.type(
      within(hospitals).getByRole('textbox', { name: /E-mail address/ }),
      'desk@ruby.example',
    );
    await user.type(
      within(hospitals).getByRole('textbox', { name: /Phone number/ }),
      '98765 43210',
    );
    await user.type(within(hospitals).getByRole('textbox', { name: /^City/ }), 'Pune');
    await user.selectOptions(
      within(hospitals).getByRole('combobox', { name: /State or union territory/ }),
      'Maharashtra',
    );
    await user.click(within(hospitals).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Ruby Hall Clinic was added.')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/hospitals')[0]!.body).toEqual({
      name: 'Ruby Hall Clinic',
      email: 'desk@ruby.example',
      phone: '+919876543210',
      city: 'Pune',
      state: 'Maharashtra',
      language: 'en',
    });
  });
});

function dashboardStats() {
  return {
    total: 0,
    byStatus: { pending: 0, approved: 0, rejected: 0, suspended: 0 },
    byBloodType: {},
    newLast7d: 0,
    availableNow: 0,
  };
}
