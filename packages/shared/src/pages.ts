/**
 * Every page path of the web app (product spec section 2; apps/web/src/app/router.tsx, which a
 * test holds to this list). The server answers these with the app's HTML and 200, and any other
 * page path with the same HTML and 404 (the app shows "Page not found"): a link checker, a
 * search engine or a link preview then learns that the page does not exist.
 */
export const PAGE_PATHS = [
  '/',
  '/about',
  '/contact',
  '/help',
  '/privacy',
  '/terms',
  '/components',
  '/education',
  '/emergency',
  '/blood-banks',
  '/blood-banks/:id',
  '/articles/:slug',
  '/login',
  '/signin',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/admin/login',
  '/hospital/login',
  '/hospital/register',
  '/donor/dashboard',
  '/donor/onboarding',
  '/donor/profile',
  '/donor/history',
  '/donor/certificates',
  '/dashboard',
  '/profile',
  '/notifications',
  '/onboarding',
  '/admin',
  '/admin/verification',
  '/admin/requests',
  '/admin/reports',
  '/hospital/dashboard',
  '/hospital/stock',
] as const;

const PAGE_PATTERNS = PAGE_PATHS.map(
  (path) => new RegExp(`^${path.replace(/:[a-z]+/gi, '[^/]+')}/?$`),
);

/** Whether `pathname` (no query string) is one of the app's pages. */
export function isPagePath(pathname: string): boolean {
  return PAGE_PATTERNS.some((pattern) => pattern.test(pathname));
}
