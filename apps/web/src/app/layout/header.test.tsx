import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { fail, mockApi, ok } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import type { FeatureFlags } from '@bdms/shared';
import type { User } from '../../features/auth';
import { Header } from './header';

function renderHeader(options: Parameters<typeof renderRoutes>[1] = {}) {
  return renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <Header />
            <main>
              <Outlet />
              <p>Page body</p>
            </main>
          </>
        ),
        children: [
          { index: true, element: <h1>Home page</h1> },
          { path: 'about', element: <h1>About page</h1> },
          { path: 'education', element: <h1>Education page</h1> },
          { path: '*', element: <h1>Other page</h1> },
        ],
      },
    ],
    options,
  );
}

function mainNav() {
  return screen.getByRole('navigation', { name: 'Main' });
}

describe('Header', () => {
  it('shows the app name, the navigation and the anonymous account links', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Blood Donation Management System' })).toHaveAttribute(
      'href',
      '/',
    );
    const nav = within(mainNav());
    for (const [name, href] of [
      ['Home', '/'],
      ['About Us', '/about'],
      ['Education', '/education'],
      ['Contact', '/contact'],
    ]) {
      expect(nav.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Register as Donor' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('marks the current page', () => {
    renderHeader({ path: '/about' });
    expect(within(mainNav()).getByRole('link', { name: 'About Us' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(mainNav()).getByRole('link', { name: 'Home' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('hides Emergency Request and Blood Banks while their flags are off (the default)', () => {
    renderHeader();
    expect(screen.queryByRole('link', { name: 'Emergency Request' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Blood Banks' })).not.toBeInTheDocument();
  });

  it('shows Emergency Request and Blood Banks when their flags are on', () => {
    renderHeader({ flags: { emergencyServices: true, bloodBankDirectory: true } });
    expect(within(mainNav()).getByRole('link', { name: 'Emergency Request' })).toHaveAttribute(
      'href',
      '/emergency',
    );
    expect(within(mainNav()).getByRole('link', { name: 'Blood Banks' })).toHaveAttribute(
      'href',
      '/blood-banks',
    );
  });

  describe('mobile menu', () => {
    async function openMenu() {
      const user = userEvent.setup();
      const button = screen.getByRole('button', { name: 'Open menu' });
      expect(button).toHaveAttribute('aria-expanded', 'false');
      await user.click(button);
      expect(button).toHaveAttribute('aria-expanded', 'true');
      expect(button).toHaveAccessibleName('Close menu');
      const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
      expect(panel).toBeVisible();
      return { user, button, panel: panel! };
    }

    it('opens a panel with the navigation, account links and language choice', async () => {
      renderHeader();
      const { panel } = await openMenu();
      const menu = within(panel);
      expect(menu.getByRole('navigation', { name: 'Menu' })).toBeInTheDocument();
      expect(menu.getByRole('link', { name: 'About Us' })).toBeInTheDocument();
      expect(menu.getByRole('link', { name: 'Sign In' })).toBeInTheDocument();
      expect(menu.getByRole('combobox', { name: 'Language' })).toBeInTheDocument();
    });

    it('closes on a route change', async () => {
      renderHeader();
      const { user, button, panel } = await openMenu();
      await user.click(within(panel).getByRole('link', { name: 'Education' }));
      expect(await screen.findByRole('heading', { name: 'Education page' })).toBeInTheDocument();
      await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
      expect(panel).not.toBeVisible();
    });

    it('closes on a click outside it, but not on a click inside it', async () => {
      renderHeader();
      const { user, button, panel } = await openMenu();
      await user.click(within(panel).getByRole('navigation', { name: 'Menu' }));
      expect(button).toHaveAttribute('aria-expanded', 'true');
      await user.click(screen.getByText('Page body'));
      expect(button).toHaveAttribute('aria-expanded', 'false');
      expect(button).toHaveAccessibleName('Open menu');
    });

    it('closes on Escape and gives focus back to the menu button', async () => {
      renderHeader();
      const { user, button } = await openMenu();
      await user.keyboard('{Escape}');
      expect(button).toHaveAttribute('aria-expanded', 'false');
      expect(button).toHaveFocus();
    });
  });
});

describe('signed-in user menu', () => {
  async function renderSignedIn(user: User, menuName = /^Account menu:/) {
    await seedSession(user);
    const server = mockApi({
      'GET /auth/me': ok({ user }),
      'POST /auth/logout': ok({ loggedOut: true }),
    });
    const result = renderHeader();
    const button = await screen.findByRole('button', { name: menuName });
    return { ...result, server, button, user: userEvent.setup() };
  }

  async function openAccountMenu(user: User, menuName?: RegExp) {
    const rendered = await renderSignedIn(user, menuName);
    await rendered.user.click(rendered.button);
    expect(rendered.button).toHaveAttribute('aria-expanded', 'true');
    const panel = document.getElementById(rendered.button.getAttribute('aria-controls') ?? '')!;
    expect(panel).toBeVisible();
    return { ...rendered, menu: within(panel) };
  }

  function entries(menu: { getAllByRole: (role: 'menuitem') => HTMLElement[] }) {
    return menu
      .getAllByRole('menuitem')
      .filter((item) => item.tagName === 'A')
      .map((link) => [link.textContent, link.getAttribute('href')] as const);
  }

  it('replaces Sign In and Register with the menu, named after the user', async () => {
    const { button } = await renderSignedIn(makeUser({ name: 'Asha Rao' }));
    expect(button).toHaveAccessibleName('Account menu: Asha Rao');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register as Donor' })).not.toBeInTheDocument();
  });

  it.each([
    ['name', { name: 'Meera Iyer', firstName: 'M', lastName: 'I' }, 'Meera Iyer'],
    ['first and last name', { name: '', firstName: 'Ravi', lastName: 'Kumar' }, 'Ravi Kumar'],
    ['the e-mail before the at-sign', { name: '', email: 'ravi.k@example.in' }, 'ravi.k'],
    ['"User" when nothing else is there', { name: '  ', email: '' }, 'User'],
  ])('shows the header display name: %s', async (_rule, overrides, expected) => {
    const { button } = await renderSignedIn(makeUser(overrides));
    expect(button).toHaveAccessibleName(`Account menu: ${expected}`);
  });

  it('offers "Admin Dashboard" to an admin', async () => {
    const { menu } = await openAccountMenu(makeUser({ role: 'admin', name: 'Admin One' }));
    expect(menu.getByText('Signed in as Admin One')).toBeInTheDocument();
    expect(entries(menu)).toEqual([
      ['Admin Dashboard', '/admin'],
      ['Profile Settings', '/profile'],
      ['Notifications', '/notifications'],
    ]);
    expect(menu.getByRole('menuitem', { name: 'Sign Out' })).toBeInTheDocument();
    expect(menu.getByRole('menu')).toBeInTheDocument();
  });

  it('offers "Complete Registration" to a pending donor', async () => {
    const { menu } = await openAccountMenu(
      makeUser({ status: 'pending', isApproved: false, verification: { isVerified: false } }),
    );
    expect(entries(menu)[0]).toEqual(['Complete Registration', '/onboarding']);
  });

  it('offers "Complete Registration" when the status is missing (pending by default)', async () => {
    const { menu } = await openAccountMenu(makeUser({ status: undefined }));
    expect(entries(menu)[0]).toEqual(['Complete Registration', '/onboarding']);
  });

  it('offers "Dashboard" to an approved donor', async () => {
    const { menu } = await openAccountMenu(makeUser({ status: 'approved' }));
    expect(entries(menu)).toEqual([
      ['Dashboard', '/dashboard'],
      ['Profile Settings', '/profile'],
      ['Notifications', '/notifications'],
    ]);
  });

  it("sends a hospital's Dashboard to /hospital/dashboard", async () => {
    const { menu } = await openAccountMenu(makeUser({ role: 'hospital', status: 'approved' }));
    expect(entries(menu)[0]).toEqual(['Dashboard', '/hospital/dashboard']);
  });

  it('closes on Escape and gives focus back to its button', async () => {
    const { user, button } = await openAccountMenu(makeUser());
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('closes on a click outside it and on a route change', async () => {
    const { user, button, menu } = await openAccountMenu(makeUser());
    await user.click(screen.getByText('Page body'));
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    await user.click(
      within(document.getElementById('account-menu')!).getByRole('menuitem', {
        name: 'Profile Settings',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Other page' })).toBeInTheDocument();
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
    expect(menu).toBeDefined();
  });

  it('is usable from the keyboard alone (menu button pattern)', async () => {
    const { user, button } = await renderSignedIn(makeUser({ status: 'approved' }));
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await user.keyboard('{Enter}');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Dashboard' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Profile Settings' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Sign Out' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Dashboard' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Sign Out' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Sign Out' })).toHaveFocus();
    await user.tab();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('signs out: logs out, goes to / and offers Sign In again', async () => {
    const { user, menu, server, router } = await openAccountMenu(makeUser());
    // Start elsewhere so the move to / is visible.
    await router.navigate('/about');
    // The move closes the menu; on a busy machine that can land after the next click, so wait
    // for it before opening the menu again.
    const button = screen.getByRole('button', { name: /^Account menu:/ });
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'false'));
    await user.click(button);
    await user.click(
      await within(document.getElementById('account-menu')!).findByRole('menuitem', {
        name: 'Sign Out',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getAllByRole('link', { name: 'Sign In' }).length).toBeGreaterThan(0);
    expect(server.callsTo('POST /auth/logout')[0]?.body).toEqual({
      refreshToken: 'refresh-token-1',
    });
    expect(window.localStorage.getItem('authState')).toBeNull();
    expect(menu).toBeDefined();
  });

  it('signs out locally even when the logout call fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await seedSession(makeUser());
    mockApi({
      'GET /auth/me': ok({ user: makeUser() }),
      'POST /auth/logout': fail(500, 'INTERNAL_ERROR'),
    });
    renderHeader();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Account menu:/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    expect((await screen.findAllByRole('link', { name: 'Sign In' })).length).toBeGreaterThan(0);
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('puts the account entries in the mobile menu too', async () => {
    const { user } = await renderSignedIn(makeUser({ role: 'admin', name: 'Admin One' }));
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const panel = within(document.getElementById('mobile-menu')!);
    expect(panel.getByText('Signed in as Admin One')).toBeInTheDocument();
    expect(panel.getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
    expect(panel.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect(panel.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('translates the menu', async () => {
    window.localStorage.setItem('preferred-language', 'es');
    const { i18n } = await import('../../i18n');
    await i18n.changeLanguage('es');
    const { menu, button } = await openAccountMenu(
      makeUser({ status: 'approved' }),
      /^Menú de la cuenta:/,
    );
    expect(button).toHaveAccessibleName('Menú de la cuenta: Asha Rao');
    expect(entries(menu)[1]).toEqual(['Configuración del perfil', '/profile']);
    expect(menu.getByRole('menuitem', { name: 'Cerrar sesión' })).toBeInTheDocument();
  });
});

describe('donor entries and the notifications bell', () => {
  async function renderDonor(user: User, flags: Partial<FeatureFlags> = {}) {
    await seedSession(user);
    const server = mockApi({
      'GET /auth/me': ok({ user }),
      'GET /notifications': ok({ items: [], total: 4, page: 1, pageSize: 1, unread: 4 }),
    });
    renderHeader({ flags });
    await screen.findByRole('button', { name: /^Account menu:/ });
    return { server, user: userEvent.setup() };
  }

  it('adds Donation History and Certificates for an approved donor while their flags are on', async () => {
    const { user } = await renderDonor(makeUser(), {
      donationHistory: true,
      certificateGeneration: true,
    });
    await user.click(screen.getByRole('button', { name: /^Account menu:/ }));
    const menu = within(document.getElementById('account-menu')!);
    expect(
      menu
        .getAllByRole('menuitem')
        .filter((item) => item.tagName === 'A')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['Donation History', '/donor/history'],
      ['Certificates', '/donor/certificates'],
      ['Profile Settings', '/profile'],
      ['Notifications', '/notifications'],
    ]);
  });

  it('leaves them out while the flags are off (the default)', async () => {
    const { user } = await renderDonor(makeUser());
    await user.click(screen.getByRole('button', { name: /^Account menu:/ }));
    const menu = within(document.getElementById('account-menu')!);
    expect(menu.queryByRole('menuitem', { name: 'Donation History' })).not.toBeInTheDocument();
    expect(menu.queryByRole('menuitem', { name: 'Certificates' })).not.toBeInTheDocument();
  });

  it('shows the unread count next to the account menu', async () => {
    const { server } = await renderDonor(makeUser());
    expect(await screen.findByRole('link', { name: 'Notifications: 4 unread' })).toHaveAttribute(
      'href',
      '/notifications',
    );
    expect(server.callsTo('GET /notifications')[0]!.query.get('pageSize')).toBe('1');
  });

  it('shows no bell to a donor still waiting for approval', async () => {
    const { server } = await renderDonor(
      makeUser({ status: 'pending', isApproved: false, verification: { isVerified: false } }),
    );
    await waitFor(() => expect(server.callsTo('GET /auth/me')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: /^Notifications/ })).not.toBeInTheDocument();
    expect(server.callsTo('GET /notifications')).toHaveLength(0);
  });
});

describe('role shortcuts (isFeatureVisible)', () => {
  async function renderAs(user: User, flags: Partial<FeatureFlags>) {
    await seedSession(user);
    mockApi({ 'GET /auth/me': ok({ user }) });
    renderHeader({ flags });
    await screen.findByRole('button', { name: /^Account menu:/ });
  }
  const shortcuts = () => screen.queryByRole('navigation', { name: 'Shortcuts' });

  it('shows an administrator the Admin Panel shortcut only while adminPanel is on', async () => {
    await renderAs(makeUser({ role: 'admin', name: 'Admin One' }), { adminPanel: true });
    const nav = within(shortcuts()!);
    expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
    expect(nav.queryByRole('link', { name: 'Hospital Dashboard' })).not.toBeInTheDocument();
  });

  it('shows no shortcut to an administrator while adminPanel is off (the default)', async () => {
    await renderAs(makeUser({ role: 'admin', name: 'Admin One' }), { hospitalDashboard: true });
    expect(shortcuts()).not.toBeInTheDocument();
  });

  it('shows a hospital the Hospital Dashboard shortcut only while hospitalDashboard is on', async () => {
    await renderAs(makeUser({ role: 'hospital', status: 'approved' }), {
      hospitalDashboard: true,
      adminPanel: true,
    });
    const nav = within(shortcuts()!);
    expect(nav.getByRole('link', { name: 'Hospital Dashboard' })).toHaveAttribute(
      'href',
      '/hospital/dashboard',
    );
    expect(nav.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows a donor neither shortcut, whatever the flags', async () => {
    await renderAs(makeUser({ status: 'approved' }), { hospitalDashboard: true, adminPanel: true });
    expect(shortcuts()).not.toBeInTheDocument();
  });
});
