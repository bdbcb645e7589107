import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageBoundary } from '../components/boundaries';
import { RequireAuth } from '../features/auth';
import { lazyWithRetry } from '../lib/lazy-with-retry';
import { RootErrorScreen, RootLayout } from './layout/root-layout';
import type { InfoPageKey } from './routes/info-page';

/** A page whose feature ships later: its heading and purpose, from the shared info-page chunk. */
function infoPage(key: InfoPageKey) {
  return lazyWithRetry<object>(key, () =>
    import('./routes/info-page').then(({ InfoPage }) => ({
      default: function RoutePage() {
        return <InfoPage page={key} />;
      },
    })),
  );
}

const HomePage = lazyWithRetry('home', () => import('./routes/home'));
const ComponentsShowcasePage = lazyWithRetry(
  'components',
  () => import('./routes/components-showcase'),
);
const NotFoundPage = lazyWithRetry('not-found', () => import('./routes/not-found'));

/** The page's name in "Sorry, we couldn't load the {page} page." */
function usePageName(key: InfoPageKey | 'home' | 'components' | 'notFound'): string {
  const { t } = useTranslation(['pages', 'home', 'showcase', 'errors']);
  if (key === 'home') return t('home:meta.title');
  if (key === 'components') return t('showcase:meta.title');
  if (key === 'notFound') return t('errors:notFound.title');
  return t(`pages:${key}.title`);
}

function Screen({
  name,
  page: PageComponent,
}: {
  name: Parameters<typeof usePageName>[0];
  page: ComponentType;
}): ReactNode {
  return (
    <PageBoundary page={usePageName(name)}>
      <PageComponent />
    </PageBoundary>
  );
}

function route(path: string, key: InfoPageKey, Component = infoPage(key)): RouteObject {
  return { path, element: <Screen name={key} page={Component} /> };
}

const loginPage = infoPage('login');

/** Every route of the product spec (section 2). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      { index: true, element: <Screen name="home" page={HomePage} /> },
      route('about', 'about'),
      route('contact', 'contact'),
      route('help', 'help'),
      route('privacy', 'privacy'),
      route('terms', 'terms'),
      { path: 'components', element: <Screen name="components" page={ComponentsShowcasePage} /> },
      route('education', 'education'),
      route('emergency', 'emergency'),
      route('blood-banks', 'bloodBanks'),
      route('articles/:slug', 'article'),
      route('login', 'login', loginPage),
      route('signin', 'login', loginPage),
      route('register', 'register'),
      route('forgot-password', 'forgotPassword'),
      route('reset-password', 'resetPassword'),
      route('admin/login', 'adminLogin'),
      route('hospital/login', 'hospitalLogin'),
      {
        element: <RequireAuth />,
        children: [
          route('donor/dashboard', 'donorDashboard'),
          route('donor/onboarding', 'donorOnboarding'),
          route('donor/profile', 'donorProfile'),
          route('dashboard', 'dashboard'),
          route('profile', 'profile'),
          route('notifications', 'notifications'),
          route('onboarding', 'onboarding'),
        ],
      },
      {
        element: <RequireAuth role="admin" />,
        children: [
          route('admin', 'admin'),
          route('admin/verification', 'adminVerification'),
          route('admin/requests', 'adminRequests'),
        ],
      },
      {
        element: <RequireAuth role="hospital" />,
        children: [route('hospital/dashboard', 'hospitalDashboard')],
      },
      { path: '*', element: <Screen name="notFound" page={NotFoundPage} /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
