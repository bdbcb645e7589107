import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '../test/render';
import { PAGE_PATHS, isPagePath } from '@bdms/shared';
import { routes } from './router';

function renderApp(path: string, options: Parameters<typeof renderRoutes>[1] = {}) {
  return renderRoutes(routes, { ...options, path });
}

const PUBLIC_PAGES: [path: string, heading: string][] = [
  ['/about', 'About Us'],
  ['/contact', 'Contact Us'],
  ['/help', 'Help Center'],
  ['/privacy', 'Privacy Policy'],
  ['/terms', 'Terms of Service'],
  ['/education', 'Learn About Blood Donation'],
  ['/emergency', 'Emergency Blood Request'],
  ['/blood-banks', 'Blood Banks'],
  ['/articles/why-donate', 'Article'],
  ['/login', 'Sign In'],
  ['/signin', 'Sign In'],
  ['/register', 'Register as Donor'],
  ['/forgot-password', 'Forgot Password'],
  ['/reset-password', 'Set a New Password'],
  ['/admin/login', 'Administrator Sign In'],
  ['/hospital/login', 'Hospital Sign In'],
  ['/components', 'Component Showcase'],
];

describe('routes', () => {
  it.each(PUBLIC_PAGES)('%s shows its heading, purpose and title', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    await waitFor(() =>
      expect(document.title).toBe(`${heading} · Blood Donation Management System`),
    );
    const description = document.querySelector('meta[name="description"]')?.getAttribute('content');
    expect(description).toBeTruthy();
  });

  it.each([
    '/donor/dashboard',
    '/donor/onboarding',
    '/donor/profile',
    '/donor/history',
    '/donor/certificates',
    '/dashboard',
    '/profile',
    '/notifications',
    '/onboarding',
  ])('%s sends a visitor who is not signed in to /login', async (path) => {
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: path } });
  });

  it.each(['/admin', '/admin/verification', '/admin/requests'])(
    '%s sends a visitor who is not signed in to /admin/login',
    async (path) => {
      const { router } = renderApp(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Administrator Sign In' }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/admin/login');
      expect(router.state.location.state).toMatchObject({ from: { pathname: path } });
    },
  );

  it('/hospital/dashboard sends a visitor who is not signed in to /hospital/login', async () => {
    const { router } = renderApp('/hospital/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Hospital Sign In' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/hospital/login');
    expect(router.state.location.state).toMatchObject({
      from: { pathname: '/hospital/dashboard' },
    });
  });

  it('shows "Page not found" with a way home for any other path', async () => {
    renderApp('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page not found' }),
    ).toBeInTheDocument();
    const main = screen.getByRole('main');
    await userEvent.click(within(main).getByRole('link', { name: 'Go to Home' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: /privacy-protected/ }),
    ).toBeInTheDocument();
  });

  it('shows the error screen for /components?__throw=render', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/components?__throw=render');
    expect(
      await screen.findByRole('heading', { name: 'Oops! Something went wrong' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Error ID: ERR-/)).toBeInTheDocument();
    // The header and footer stay usable around it.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('offers a skip link to the main content', async () => {
    renderApp('/about');
    await screen.findByRole('heading', { level: 1, name: 'About Us' });
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute(
      'href',
      '#main-content',
    );
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
  });
});

describe('home page', () => {
  it('makes the banner claims and explains how it works for both audiences', async () => {
    renderApp('/');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: "India's first privacy-protected blood donation platform",
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Free for everyone' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Complete privacy' })).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Hidden for 3 months after a donation' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'For blood donors' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'For people who need blood' })).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    for (const link of main.getAllByRole('link', { name: 'Register as Donor' })) {
      expect(link).toHaveAttribute('href', '/register');
    }
    expect(document.title).toBe('Home · Blood Donation Management System');
  });

  it('offers the emergency request only when emergencyServices is on', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('link', { name: 'Request Blood Now' })).not.toBeInTheDocument();
  });

  it('shows the emergency call to action when emergencyServices is on', async () => {
    renderApp('/', { flags: { emergencyServices: true } });
    expect(
      await screen.findByRole('heading', { name: 'Need blood urgently?' }),
    ).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'Request Blood Now' })) {
      expect(link).toHaveAttribute('href', '/emergency');
    }
  });
});

describe('footer', () => {
  it('has the site links, the register call to action, social links and the support e-mail', async () => {
    renderApp('/about', { supportEmail: 'help@bdms.example' });
    const footer = within(screen.getByRole('contentinfo'));
    for (const [name, href] of [
      ['Home', '/'],
      ['About Us', '/about'],
      ['Help Center', '/help'],
      ['Contact Us', '/contact'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Register as Donor', '/register'],
    ]) {
      expect(footer.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(
      footer.getByText(/connects donors and recipients nationwide across India/),
    ).toBeInTheDocument();
    expect(footer.getByRole('link', { name: /help@bdms\.example/ })).toHaveAttribute(
      'href',
      'mailto:help@bdms.example',
    );
    const social = footer.getByRole('link', { name: 'Instagram (opens in a new tab)' });
    expect(social).toHaveAttribute('rel', 'noopener noreferrer');
    expect(social).toHaveAttribute('target', '_blank');
  });
});

describe('the page paths the server knows (PAGE_PATHS)', () => {
  it("are exactly the router's paths, so the server answers 404 for nothing the app shows", () => {
    const paths: string[] = [];
    const walk = (list: typeof routes, parent: string) => {
      for (const item of list) {
        const path = item.index
          ? parent || '/'
          : item.path
            ? `${parent}/${item.path}`.replace(/\/+/g, '/')
            : parent;
        if ((item.index || item.path) && item.path !== '*') paths.push(path);
        if (item.children) walk(item.children, path === '/' ? '' : path);
      }
    };
    walk(routes, '');
    expect([...paths].sort()).toEqual([...PAGE_PATHS].sort());
    expect(isPagePath('/blood-banks/42')).toBe(true);
    expect(isPagePath('/blood-banks/42/x')).toBe(false);
  });
});
