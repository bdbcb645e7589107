import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { renderRoutes } from '../../test/render';
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
