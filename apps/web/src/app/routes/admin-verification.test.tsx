import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, makeDetails, makeDonor } from '../../features/admin/test/fixtures';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { seedSession } from '../../test/session';
import { routes } from '../router';

const PENDING = makeDonor();
const WAITING = makeDonor({
  id: 'd-2',
  name: 'Sita Devi',
  fullName: 'Sita Devi',
  email: 'sita@example.in',
  onboardingCompleted: false,
  bloodType: 'AB-',
});

function baseRoutes(): Record<string, MockRoute> {
  return {
    'GET /auth/me': ok({ user: ADMIN }),
    'GET /admin/donors/pending': ok({
      donors: [PENDING, WAITING],
      total: 2,
      page: 1,
      pageSize: 10,
    }),
    'GET /admin/donors': ok({ items: [PENDING, WAITING], total: 2, page: 1, pageSize: 20 }),
    'GET /admin/donors/d-1/details': ok(makeDetails(PENDING)),
  };
}

async function renderVerification(
  server: Record<string, MockRoute> = {},
  path = '/admin/verification',
) {
  await seedSession(ADMIN);
  const api = mockApi({ ...baseRoutes(), ...server });
  const rendered = renderRoutes(routes, { path });
  await screen.findByRole('heading', { level: 1, name: 'Donor Verification' });
  return { ...rendered, api, user: userEvent.setup() };
}

/** Opens Ravi from the queue; resolves with his panel. */
async function openRavi(user: ReturnType<typeof userEvent.setup>) {
  const queue = screen.getByRole('region', { name: 'Waiting for review' });
  await user.click(await within(queue).findByRole('button', { name: /Ravi Kumar/ }));
  return screen.findByRole('article', { name: 'Ravi Kumar' });
}

describe('/admin/verification', () => {
  it('lists the queue, onboarding state included, and opens a donor with contact details', async () => {
    const { user, router } = await renderVerification();
    const queue = screen.getByRole('region', { name: 'Waiting for review' });
    expect(
      await within(queue).findByText('2 donors waiting. Those who finished onboarding come first.'),
    ).toBeInTheDocument();
    const items = within(queue).getAllByRole('button');
    expect(items[0]).toHaveTextContent('Ravi Kumar');
    expect(items[0]).toHaveTextContent('Onboarding complete');
    expect(items[1]).toHaveTextContent('Onboarding not finished');

    const panel = await openRavi(user);
    expect(router.state.location.search).toBe('?donor=d-1');
    expect(within(panel).getByRole('heading', { level: 2, name: 'Ravi Kumar' })).toHaveFocus();
    expect(within(panel).getByRole('link', { name: '+91 98123 45678' })).toHaveAttribute(
      'href',
      'tel:+919812345678',
    );
    expect(within(panel).getByRole('link', { name: 'ravi.kumar@example.in' })).toBeInTheDocument();
    expect(within(panel).getByText('Can give blood today')).toBeInTheDocument();
    expect(within(queue).getByRole('button', { name: /Ravi Kumar/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  it('shows designed empty states when no one waits and no donor matches', async () => {
    await renderVerification(
      {
        'GET /admin/donors/pending': ok({ donors: [], total: 0, page: 1, pageSize: 10 }),
        'GET /admin/donors': ok({ items: [], total: 0, page: 1, pageSize: 20 }),
      },
      '/admin/verification?status=suspended',
    );
    expect(await screen.findByText('No one is waiting for review')).toBeInTheDocument();
    expect(await screen.findByText('No donor matches these filters')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('suspended');
  });

  it('searches with the filters and pages through the results', async () => {
    const { api, user, router } = await renderVerification({
      'GET /admin/donors': ok({ items: [PENDING], total: 45, page: 1, pageSize: 20 }),
    });
    const search = screen.getByRole('region', { name: 'All donors' });
    await user.selectOptions(within(search).getByRole('combobox', { name: 'Blood type' }), 'B+');
    await user.type(within(search).getByRole('searchbox', { name: 'Search' }), 'Jaipur{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?bloodType=B%2B&q=Jaipur'), {
      timeout: 4000,
    });
    /** The query of each donor search, as sorted `key=value` lists. */
    const searches = () =>
      api.spy.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname === '/api/v1/admin/donors')
        .map((url) => [...url.searchParams].map(([key, value]) => `${key}=${value}`).sort());
    // Generous waits: the whole suite runs in parallel on two cores.
    await waitFor(
      () =>
        expect(searches()).toContainEqual(['bloodType=B+', 'page=1', 'pageSize=20', 'q=Jaipur']),
      { timeout: 4000 },
    );
    await user.click(
      await within(search).findByRole('button', { name: 'Next' }, { timeout: 4000 }),
    );
    await waitFor(
      () =>
        expect(searches()).toContainEqual(['bloodType=B+', 'page=2', 'pageSize=20', 'q=Jaipur']),
      { timeout: 4000 },
    );
  });

  it('requires a reason to reject a donor, and sends it', async () => {
    let donor = PENDING;
    const { api, user } = await renderVerification({
      'GET /admin/donors/d-1/details': () => ok(makeDetails(donor)),
      'POST /admin/donors/d-1/reject': (request) => {
        const { reason } = request.body as { reason: string };
        donor = { ...PENDING, status: 'rejected', rejectionReason: reason };
        return ok({ user: donor });
      },
    });
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Reject Ravi Kumar?' });
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    expect(reason).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Reject donor' }));
    expect(reason).toHaveAccessibleDescription(
      expect.stringContaining('Give a reason. The donor or requester is told what it says.'),
    );
    expect(api.callsTo('POST /admin/donors/d-1/reject')).toHaveLength(0);

    await user.type(reason, 'The ID proof does not show the name.');
    await user.click(within(dialog).getByRole('button', { name: 'Reject donor' }));
    expect(await screen.findByText('Ravi Kumar was rejected.')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/donors/d-1/reject')[0]!.body).toEqual({
      reason: 'The ID proof does not show the name.',
    });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // The panel shows the new status and the reason; rejected donors have no action left.
    expect((await within(panel).findAllByText('Rejected')).length).toBeGreaterThan(0);
    expect(within(panel).getByText('The ID proof does not show the name.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('asks before approving, and explains a 409 INVALID_TRANSITION', async () => {
    const { api, user } = await renderVerification({
      'POST /admin/donors/d-1/approve': fail(409, 'INVALID_TRANSITION'),
    });
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve Ravi Kumar?' });
    expect(api.callsTo('POST /admin/donors/d-1/approve')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve donor' }));
    expect(
      await within(dialog).findByText(
        /This change is not possible from the donor's current status/,
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /admin/donors/d-1/approve')[0]!.body).toBeUndefined();
    // The panel reads the donor again, to show what the status is now.
    await waitFor(() => expect(api.callsTo('GET /admin/donors/d-1/details')).toHaveLength(2));
  });

  it('warns in the approval confirmation while a document is "Not checked yet"', async () => {
    const { user } = await renderVerification();
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve Ravi Kumar?' });
    expect(dialog).toHaveAccessibleDescription(
      expect.stringContaining('1 document is not checked yet: ID proof.'),
    );
  });

  it('says nothing of documents when every one is checked', async () => {
    const details = makeDetails(PENDING);
    const { user } = await renderVerification({
      'GET /admin/donors/d-1/details': ok({
        ...details,
        documents: details.documents.map((document) => ({
          ...document,
          status: 'verified',
          verified: true,
        })),
      }),
    });
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve Ravi Kumar?' });
    expect(dialog).not.toHaveTextContent(/not checked yet/);
  });

  it('explains an approval refused because onboarding is not finished', async () => {
    const { user } = await renderVerification({
      'POST /admin/donors/d-1/approve': fail(409, 'ONBOARDING_INCOMPLETE'),
    });
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));
    await user.click(screen.getByRole('button', { name: 'Approve donor' }));
    expect(await screen.findByText(/has not finished onboarding/)).toBeInTheDocument();
  });

  it('offers only what the status allows: suspend an approved donor, reactivate a suspended one', async () => {
    let donor = makeDonor({ status: 'approved', isApproved: true });
    const { api, user } = await renderVerification({
      'GET /admin/donors/d-1/details': () => ok(makeDetails(donor)),
      'POST /admin/donors/d-1/suspend': (request) => {
        const { reason } = request.body as { reason: string };
        donor = { ...donor, status: 'suspended', suspensionReason: reason };
        return ok({ user: donor });
      },
    });
    const panel = await openRavi(user);
    expect(within(panel).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Suspend Ravi Kumar?' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'ok');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend donor' }));
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(
      expect.stringContaining('Write at least 3 characters'),
    );
    await user.type(
      within(dialog).getByRole('textbox', { name: /Reason/ }),
      ' — fake documents reported.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Suspend donor' }));
    expect(await screen.findByText('Ravi Kumar was suspended.')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/donors/d-1/suspend')).toHaveLength(1);
    expect(await within(panel).findByRole('button', { name: 'Reactivate' })).toBeInTheDocument();
    // Its button is gone: focus lands on the donor's name, not on the page.
    await waitFor(() => expect(within(panel).getByRole('heading', { level: 2 })).toHaveFocus());
  });

  describe('documents', () => {
    beforeEach(() => {
      URL.createObjectURL = vi.fn(() => 'blob:preview');
      URL.revokeObjectURL = vi.fn();
    });

    it('requires a reason to reject a document, and sends it', async () => {
      let details = makeDetails(PENDING);
      const { api, user } = await renderVerification({
        'GET /admin/donors/d-1/details': () => ok(details),
        'PUT /documents/doc-1/verify': (request) => {
          const document = {
            ...details.documents[0]!,
            verified: false,
            status: 'rejected' as const,
            rejectionReason: (request.body as { rejectionReason: string }).rejectionReason,
          };
          details = { ...details, documents: [document] };
          return ok({ document });
        },
      });
      const panel = await openRavi(user);
      await user.click(within(panel).getByRole('button', { name: 'Reject: ID proof' }));
      const dialog = screen.getByRole('alertdialog', { name: 'Reject the ID proof?' });
      await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
      expect(
        within(dialog).getByRole('textbox', { name: /What is wrong with it/ }),
      ).toHaveAccessibleDescription(expect.stringContaining('Give a reason'));
      expect(api.callsTo('PUT /documents/doc-1/verify')).toHaveLength(0);
      await user.type(
        within(dialog).getByRole('textbox', { name: /What is wrong with it/ }),
        'The photo is blurred.',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
      expect(await screen.findByText('ID proof rejected.')).toBeInTheDocument();
      expect(api.callsTo('PUT /documents/doc-1/verify')[0]!.body).toEqual({
        verified: false,
        rejectionReason: 'The photo is blurred.',
      });
      expect(within(panel).getByText('The photo is blurred.')).toBeInTheDocument();
    });

    it('verifies a document and previews an image inline', async () => {
      const { api, user } = await renderVerification({
        'GET /documents/doc-1/file': ok('image bytes'),
        'PUT /documents/doc-1/verify': ok({
          document: { ...makeDetails().documents[0], verified: true, status: 'verified' },
        }),
      });
      const panel = await openRavi(user);
      await user.click(within(panel).getByRole('button', { name: 'Show preview: ID proof' }));
      expect(
        await within(panel).findByRole('img', { name: 'ID proof: aadhaar-front.jpg' }),
      ).toHaveAttribute('src', 'blob:preview');
      const file = api.callsTo('GET /documents/doc-1/file')[0]!;
      expect(file.headers.get('Authorization')).toBe('Bearer access-1');
      await user.click(within(panel).getByRole('button', { name: 'Verify: ID proof' }));
      expect(await screen.findByText('ID proof verified.')).toBeInTheDocument();
      expect(api.callsTo('PUT /documents/doc-1/verify')[0]!.body).toEqual({
        verified: true,
        rejectionReason: null,
      });
    });
  });

  it('reviews the questionnaire: rejecting needs notes', async () => {
    const details = makeDetails(PENDING);
    const { api, user } = await renderVerification({
      'PUT /admin/donors/d-1/questionnaire/review': (request) =>
        ok({
          questionnaire: {
            ...details.questionnaire,
            review: {
              ...(request.body as object),
              reviewedAt: '2026-11-21T00:00:00Z',
              reviewedBy: 'admin-1',
            },
          },
        }),
    });
    const panel = await openRavi(user);
    await user.click(within(panel).getByRole('button', { name: 'Do not accept' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Not accept the questionnaire?' });
    await user.click(within(dialog).getByRole('button', { name: 'Do not accept' }));
    expect(api.callsTo('PUT /admin/donors/d-1/questionnaire/review')).toHaveLength(0);
    await user.type(
      within(dialog).getByRole('textbox', { name: /Notes/ }),
      'Weight looks wrong; please check.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Do not accept' }));
    expect(await screen.findByText('Questionnaire not accepted.')).toBeInTheDocument();
    expect(api.callsTo('PUT /admin/donors/d-1/questionnaire/review')[0]!.body).toEqual({
      decision: 'rejected',
      notes: 'Weight looks wrong; please check.',
    });
  });

  it('shows the deferrals that apply today, worked out from the answers', async () => {
    const details = makeDetails(PENDING, {
      questionnaire: {
        ...makeDetails().questionnaire!,
        answers: {
          weightKg: 42,
          firstTimeDonor: true,
          feelsWell: true,
          conditions: ['hiv', 'tattoo_piercing'],
          conditionDates: { tattoo_piercing: new Date().toISOString().slice(0, 10) },
        },
      },
    });
    const { user } = await renderVerification({ 'GET /admin/donors/d-1/details': ok(details) });
    const panel = await openRavi(user);
    expect(within(panel).getByText('Cannot give blood today')).toBeInTheDocument();
    expect(within(panel).getByText('Weighs less than 45 kg')).toBeInTheDocument();
    expect(within(panel).getAllByText('HIV').length).toBeGreaterThan(0);
    expect(within(panel).getByText('permanent')).toBeInTheDocument();
    expect(within(panel).getByText(/^until /)).toBeInTheDocument();
  });

  describe('export', () => {
    afterEach(() => vi.useRealTimers());

    it('posts the filters on screen and saves the CSV under the server’s name', async () => {
      URL.createObjectURL = vi.fn(() => 'blob:csv');
      URL.revokeObjectURL = vi.fn();
      const saved: { name: string; href: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        saved.push({ name: this.download, href: this.href });
      });
      const { api, user } = await renderVerification(
        {
          'POST /admin/export/donors': {
            status: 200,
            data: 'csv',
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="donors-export-2026-11-21.csv"',
            },
          },
        },
        '/admin/verification?status=approved&bloodType=O-&q=Pune',
      );
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('Saved donors-export-2026-11-21.csv.')).toBeInTheDocument();
      expect(api.callsTo('POST /admin/export/donors')[0]!.body).toEqual({
        status: 'approved',
        bloodType: 'O-',
        q: 'Pune',
      });
      expect(saved).toEqual([{ name: 'donors-export-2026-11-21.csv', href: 'blob:csv' }]);
    });

    it('says when the export fails', async () => {
      const { user } = await renderVerification({
        'POST /admin/export/donors': fail(500, 'INTERNAL_ERROR'),
      });
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('The export did not work.')).toBeInTheDocument();
    });
  });

  it('says when the chosen donor no longer exists', async () => {
    await renderVerification(
      { 'GET /admin/donors/gone/details': fail(404, 'NOT_FOUND') },
      '/admin/verification?donor=gone',
    );
    expect(await screen.findByText('This donor no longer exists')).toBeInTheDocument();
  });
});
