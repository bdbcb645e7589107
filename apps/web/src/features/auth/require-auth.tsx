import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@bdms/shared';
import { PageLoader } from '../../components/full-screen-loader';
import { useAuth } from './auth-context';
import { decideRouteAccess } from './route-guard';

/**
 * Wraps protected routes (as a layout route, or around one element). Unauthenticated visitors go
 * to /login (/admin/login for admin routes, /hospital/login for hospital routes) with the origin
 * in location state `from`; the sign-in screen returns there.
 */
export function RequireAuth({ role, children }: { role?: Role; children?: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  const { t } = useTranslation();
  // Whether this guard has shown its route to a signed-in user (then a sign-out happened here).
  const wasShowingUser = useRef(false);
  useEffect(() => {
    if (auth.status === 'authenticated') wasShowingUser.current = true;
  }, [auth.status]);
  const decision = decideRouteAccess(auth, {
    requiredRole: role,
    pathname: location.pathname,
    wasShowingUser: wasShowingUser.current,
  });

  if (decision.type === 'loading') return <PageLoader label={t('loading.authenticating')} />;
  if (decision.type === 'redirect') {
    return (
      <Navigate
        to={decision.to}
        replace
        state={decision.rememberOrigin ? { from: location } : undefined}
      />
    );
  }
  if (children) return children;
  // A signed-in page fills at least the screen while its parts load: the footer stays below the
  // fold instead of jumping down as each part arrives (layout shift, issue #18).
  return (
    <div className="min-h-dvh">
      <Outlet />
    </div>
  );
}
