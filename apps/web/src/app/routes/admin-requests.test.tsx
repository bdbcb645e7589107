import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BloodRequest } from '@bdms/shared';
import { ADMIN, makeRequest } from '../../features/admin/test/fixtures';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { seedSession } from '../../test/session';
import { routes } from '../router';

function page(items: BloodRequest[], total = items.length) {
  return ok({
    items: items.map((item) => ({ ...item, view: 'full' })),
    total,
    page: 1,
    pageSize: 20,
  });
}

async function renderRequests(server: Record<string, MockRoute>, path = '/admin/requests') {
  await seedSession(ADMIN);
  const api = mockApi({ 'GET /auth/me': ok({ user: ADMIN }), ...server });
  const rendered = renderRoutes(routes, { path });
  await screen.findByRole('heading', { level: 1, name: 'Blood Requests' });
  return { ...rendered, api, user: userEvent.setup() };
}

function card(code: string) {
  return screen.getByRole('article', { name: `Tracking code: ${code}` });
}

function actionNames(article: HTMLElement): string[] {
  const group = within(article).queryByRole('group', { name: /^Change the status/ });
  return group
    ? within(group)
        .getAllByRole('button')
        .map((button) => button.textContent ?? '')
    : [];
}

describe('/admin/requests', () => {
  it('tags a demo request, and only it', async () => {
    await renderRequests({
      'GET /blood-requests': page([
        makeRequest({ id: 'r-demo', trackingCode: 'DEMO2345', isDemo: true }),
        makeRequest({ id: 'r-real', trackingCode: 'REAL2345' }),
      ]),
    });
    await screen.findByText('2 requests');
    expect(within(card('DEMO2345')).getByText('Demo')).toBeInTheDocument();
    expect(within(card('REAL2345')).queryByText('Demo')).toBeNull();
  });

  it('warns prominently when the contact phone of a request was not confirmed (#32 item 9)', async () => {
    await renderRequests({
      'GET /blood-requests': page([
        makeRequest({ id: 'r-skip', trackingCode: 'SKIP2345', contactPhoneConfirmed: false }),
        makeRequest({ id: 'r-ok', trackingCode: 'OKAY2345', contactPhoneConfirmed: true }),
      ]),
    });
    await screen.findByText('2 requests');
    const warning = within(card('SKIP2345')).getByRole('alert');
    expect(warning).toHaveTextContent('Contact phone not confirmed');
    expect(warning).toHaveTextContent(/Call the contact/);
    expect(within(card('OKAY2345')).queryByText('Contact phone not confirmed')).toBeNull();
  });

  it('shows each request with its urgency, contact, matches, and only the changes its status allows', async () => {
    await renderRequests({
      'GET /blood-requests': page([
        makeRequest(),
        makeRequest({
          id: 'r-2',
          trackingCode: 'BR9XW1',
          status: 'verified',
          urgency: 'urgent',
          matches: { notified: 12, accepted: 1, declined: 3 },
        }),
        makeRequest({ id: 'r-3', trackingCode: 'BR0AA0', status: 'in_progress' }),
        makeRequest({ id: 'r-4', trackingCode: 'BRDONE', status: 'fulfilled' }),
      ]),
    });
    await screen.findByText('4 requests');

    const pending = card('BR7K2Q');
    expect(within(pending).getByText('Critical')).toBeInTheDocument();
    expect(
      within(pending).getByText('Waiting for verification', { selector: 'span' }),
    ).toBeInTheDocument();
    expect(within(pending).getByText('O-')).toBeInTheDocument();
    expect(within(pending).getByText(/2 units/)).toBeInTheDocument();
    expect(within(pending).getByText('Sawai Man Singh Hospital')).toBeInTheDocument();
    expect(within(pending).getByRole('link', { name: '+91 98765 00000' })).toHaveAttribute(
      'href',
      'tel:+919876500000',
    );
    expect(actionNames(pending)).toEqual(['Verify', 'Cancel request', 'Mark expired']);

    const verified = card('BR9XW1');
    expect(within(verified).getByText('12 alerted')).toBeInTheDocument();
    expect(within(verified).getByText('1 accepted')).toBeInTheDocument();
    expect(within(verified).getByText('3 declined')).toBeInTheDocument();
    expect(within(verified).getByText('Urgent')).toBeInTheDocument();
    expect(actionNames(verified)).toEqual([
      'Mark donor on the way',
      'Cancel request',
      'Mark expired',
    ]);

    expect(actionNames(card('BR0AA0'))).toEqual([
      'Mark fulfilled',
      'Cancel request',
      'Mark expired',
    ]);
    expect(actionNames(card('BRDONE'))).toEqual([]);
    expect(
      within(card('BRDONE')).getByText('This request is closed: its status can no longer change.'),
    ).toBeInTheDocument();
  });

  it('verifies a request with optional notes and shows the new history', async () => {
    let request = makeRequest();
    const { api, user } = await renderRequests({
      'GET /blood-requests': () => page([request]),
      'PUT /blood-requests/r-1/status': (call) => {
        const body = call.body as { status: 'verified'; notes?: string };
        request = {
          ...request,
          status: body.status,
          history: [
            ...request.history,
            {
              status: body.status,
              notes: body.notes ?? null,
              by: 'admin-1',
              byRole: 'admin',
              at: '2026-11-20T09:00:00.000Z',
            },
          ],
        };
        return ok({ request });
      },
    });
    await user.click(
      await within(await screen.findByRole('article')).findByRole('button', { name: 'Verify' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Verify BR7K2Q?' });
    await user.type(within(dialog).getByRole('textbox', { name: /Notes/ }), 'Called the ward.');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('BR7K2Q: Verified, donors alerted.')).toBeInTheDocument();
    expect(api.callsTo('PUT /blood-requests/r-1/status')[0]!.body).toEqual({
      status: 'verified',
      notes: 'Called the ward.',
    });
    await waitFor(() => expect(actionNames(card('BR7K2Q'))[0]).toBe('Mark donor on the way'));
    await user.click(within(card('BR7K2Q')).getByText('History (2 changes)'));
    expect(within(card('BR7K2Q')).getByText('Called the ward.')).toBeInTheDocument();
    expect(within(card('BR7K2Q')).getByText(/by an administrator/)).toBeInTheDocument();
  });

  it('asks why before cancelling a request', async () => {
    const { api, user } = await renderRequests({
      'GET /blood-requests': page([makeRequest()]),
      'PUT /blood-requests/r-1/status': fail(409, 'INVALID_TRANSITION'),
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel request' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel BR7K2Q?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }));
    expect(api.callsTo('PUT /blood-requests/r-1/status')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Notes/ }), 'Duplicate of BR9XW1.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }));
    expect(
      await within(dialog).findByText(/not possible from the request's current status/),
    ).toBeInTheDocument();
  });

  it('filters by status, urgency, blood type and city through the address', async () => {
    const { api, user, router } = await renderRequests(
      { 'GET /blood-requests': page([makeRequest()]) },
      '/admin/requests?urgency=critical',
    );
    expect(await screen.findByRole('combobox', { name: 'Urgency' })).toHaveValue('critical');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'pending');
    await user.type(screen.getByRole('searchbox', { name: 'City' }), 'Jaipur{Enter}');
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        status: 'pending',
        urgency: 'critical',
        city: 'Jaipur',
      }),
    );
    await waitFor(() => {
      const last = new URL(String(api.spy.mock.calls.at(-1)![0]), 'http://localhost');
      expect(Object.fromEntries(last.searchParams)).toEqual({
        page: '1',
        status: 'pending',
        urgency: 'critical',
        city: 'Jaipur',
        pageSize: '20',
      });
    });
  });

  it('says when there are no requests, and when none match', async () => {
    await renderRequests({ 'GET /blood-requests': page([]) });
    expect(await screen.findByText('No blood requests yet')).toBeInTheDocument();
  });

  it('explains that blood requests are not on this server yet when the list is a 404', async () => {
    await renderRequests({});
    expect(
      await screen.findByText('Blood requests are not available on this server yet'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });
});
