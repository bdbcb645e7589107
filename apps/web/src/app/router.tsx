import { Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageBoundary } from '../components/boundaries';
import { PageLoader } from '../components/full-screen-loader';
import { RequireAuth } from '../features/auth';
import { loadNamespaces } from '../i18n';
import type { LazyNamespace } from '../i18n/resources';
import { lazyWithRetry } from '../lib/lazy-with-retry';
import { RootErrorScreen, RootLayout } from './layout/root-layout';
import type { PageKey } from './routes/page-key';
import type * as DonorArea from './routes/donor-area';

/**
 * A screen whose texts are in lazy namespaces: its code and its texts (with `pages`, which every
 * screen's title comes from) arrive together.
 */
function screenWithTexts(
  name: string,
  importer: () => Promise<{ default: ComponentType }>,
  namespaces: readonly LazyNamespace[] = ['auth'],
) {
  return lazyWithRetry<object>(name, async () => {
    const [module] = await Promise.all([importer(), loadNamespaces(['pages', ...namespaces])]);
    return module;
  });
}

const HomePage = lazyWithRetry('home', () => import('./routes/home'));
const SignInPage = screenWithTexts('login', () => import('./routes/sign-in'));
const AdminSignInPage = screenWithTexts('admin-login', () =>
  import('./routes/sign-in').then((module) => ({ default: module.AdminSignInPage })),
);
const HospitalSignInPage = screenWithTexts('hospital-login', () =>
  import('./routes/sign-in').then((module) => ({ default: module.HospitalSignInPage })),
);
const RegisterPage = screenWithTexts('register', () => import('./routes/register'));
const ForgotPasswordPage = screenWithTexts(
  'forgot-password',
  () => import('./routes/forgot-password'),
);
const ResetPasswordPage = screenWithTexts(
  'reset-password',
  () => import('./routes/reset-password'),
);
const ProfilePage = screenWithTexts('profile', () => import('./routes/profile'));
const DonorProfilePage = screenWithTexts('donor-profile', () =>
  import('./routes/profile').then((module) => ({ default: module.DonorProfilePage })),
);
const ComponentsShowcasePage = screenWithTexts(
  'components',
  () => import('./routes/components-showcase'),
  ['showcase'],
);
const AdminDashboardPage = screenWithTexts('admin', () => import('./routes/admin-dashboard'), [
  'admin',
  'auth',
]);
const AdminVerificationPage = screenWithTexts(
  'admin-verification',
  () => import('./routes/admin-verification'),
  ['admin'],
);
const AdminRequestsPage = screenWithTexts(
  'admin-requests',
  () => import('./routes/admin-requests'),
  ['admin'],
);
const AdminReportsPage = screenWithTexts('admin-reports', () => import('./routes/admin-reports'), [
  'admin',
]);
/** An approved donor's screens are one module (routes/donor-area.ts); each waits for its texts. */
function donorScreen(screen: keyof typeof DonorArea, namespaces: readonly LazyNamespace[]) {
  return screenWithTexts(
    screen,
    () => import('./routes/donor-area').then((module) => ({ default: module[screen] })),
    namespaces,
  );
}
const DashboardPage = donorScreen('DashboardPage', ['donors']);
const DonationHistoryPage = donorScreen('DonationHistoryPage', ['donors']);
const CertificatesPage = donorScreen('CertificatesPage', ['donors']);
const OnboardingPage = screenWithTexts('onboarding', () => import('./routes/onboarding'), [
  'donors',
  'onboarding',
]);
const NotificationsPage = screenWithTexts('notifications', () => import('./routes/notifications'), [
  'notifications',
]);
const EmergencyPage = screenWithTexts('emergency', () => import('./routes/emergency'), [
  'requests',
  'auth',
  'facilities',
]);
const HospitalDashboardPage = screenWithTexts(
  'hospital-dashboard',
  () => import('./routes/hospital-dashboard'),
  ['hospital', 'requests', 'auth', 'facilities'],
);
const HospitalRegisterPage = screenWithTexts(
  'hospital-register',
  () => import('./routes/hospital-register'),
  ['hospital', 'facilities', 'auth'],
);
const HospitalStockPage = screenWithTexts(
  'hospital-stock',
  () => import('./routes/hospital-stock'),
  ['hospital', 'facilities'],
);
const EducationPage = screenWithTexts('education', () => import('./routes/education'), [
  'education',
]);
const ArticlePage = screenWithTexts('article', () => import('./routes/article'), ['education']);
const HelpPage = screenWithTexts('help', () => import('./routes/help'), ['education']);
const PrivacyPage = screenWithTexts(
  'privacy',
  () => import('./routes/policy').then((module) => ({ default: module.PrivacyPage })),
  ['education'],
);
const TermsPage = screenWithTexts(
  'terms',
  () => import('./routes/policy').then((module) => ({ default: module.TermsPage })),
  ['education'],
);
const BloodBanksPage = screenWithTexts('blood-banks', () => import('./routes/blood-banks'), [
  'facilities',
]);
const FacilityPage = screenWithTexts('facility', () => import('./routes/facility'), ['facilities']);
const AboutPage = screenWithTexts('about', () => import('./routes/about'), ['site']);
const ContactPage = screenWithTexts('contact', () => import('./routes/contact'), ['site']);
const NotFoundPage = lazyWithRetry('not-found', () => import('./routes/not-found'));

/**
 * The page's name in "Sorry, we couldn't load the {page} page.": bundled texts only, since the
 * page's own (`pages`) may be what failed to arrive.
 */
function usePageName(key: PageKey | 'home' | 'notFound'): string {
  const { t } = useTranslation(['common', 'home', 'errors']);
  if (key === 'home') return t('home:meta.title');
  if (key === 'notFound') return t('errors:notFound.title');
  return t(`common:pageNames.${key}`);
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
      {/* Its own boundary: a navigation is a transition, and a transition that suspends inside a
        boundary already on screen keeps the old page up under the new address. A boundary that
        mounts with the new page shows "Loading page..." instead (issue #18). */}
      <Suspense fallback={<PageLoader />}>
        <PageComponent />
      </Suspense>
    </PageBoundary>
  );
}

function route(path: string, key: PageKey, Component: ComponentType): RouteObject {
  // Keyed by the path: two routes' screens are the same component type at the same place, and
  // without a key React would keep the first one's Suspense boundary (already shown) for the next.
  return { path, element: <Screen key={path} name={key} page={Component} /> };
}

/** Every route of the product spec (section 2). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      { index: true, element: <Screen key="/" name="home" page={HomePage} /> },
      route('about', 'about', AboutPage),
      route('contact', 'contact', ContactPage),
      route('help', 'help', HelpPage),
      route('privacy', 'privacy', PrivacyPage),
      route('terms', 'terms', TermsPage),
      route('components', 'components', ComponentsShowcasePage),
      route('education', 'education', EducationPage),
      route('emergency', 'emergency', EmergencyPage),
      route('blood-banks', 'bloodBanks', BloodBanksPage),
      route('blood-banks/:id', 'facility', FacilityPage),
      route('articles/:slug', 'article', ArticlePage),
      route('login', 'login', SignInPage),
      route('signin', 'login', SignInPage),
      route('register', 'register', RegisterPage),
      route('forgot-password', 'forgotPassword', ForgotPasswordPage),
      route('reset-password', 'resetPassword', ResetPasswordPage),
      route('admin/login', 'adminLogin', AdminSignInPage),
      route('hospital/login', 'hospitalLogin', HospitalSignInPage),
      route('hospital/register', 'hospitalRegister', HospitalRegisterPage),
      {
        element: <RequireAuth />,
        children: [
          route('donor/dashboard', 'donorDashboard', DashboardPage),
          route('donor/onboarding', 'donorOnboarding', OnboardingPage),
          route('donor/profile', 'donorProfile', DonorProfilePage),
          route('donor/history', 'donorHistory', DonationHistoryPage),
          route('donor/certificates', 'donorCertificates', CertificatesPage),
          route('dashboard', 'dashboard', DashboardPage),
          route('profile', 'profile', ProfilePage),
          route('notifications', 'notifications', NotificationsPage),
          route('onboarding', 'onboarding', OnboardingPage),
        ],
      },
      {
        element: <RequireAuth role="admin" />,
        children: [
          route('admin', 'admin', AdminDashboardPage),
          route('admin/verification', 'adminVerification', AdminVerificationPage),
          route('admin/requests', 'adminRequests', AdminRequestsPage),
          route('admin/reports', 'adminReports', AdminReportsPage),
        ],
      },
      {
        element: <RequireAuth role="hospital" />,
        children: [
          route('hospital/dashboard', 'hospitalDashboard', HospitalDashboardPage),
          route('hospital/stock', 'hospitalStock', HospitalStockPage),
        ],
      },
      { path: '*', element: <Screen key="*" name="notFound" page={NotFoundPage} /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
