import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@bdms/shared';
import { FullScreenLoader } from '../../components/full-screen-loader';
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
  const decision = decideRouteAccess(auth, { requiredRole: role, pathname: location.pathname });

  if (decision.type === 'loading') return <FullScreenLoader label={t('loading.authenticating')} />;
  if (decision.type === 'redirect') {
    return (
      <Navigate
        to={decision.to}
        replace
        state={decision.rememberOrigin ? { from: location } : undefined}
      />
    );
  }
  return children ?? <Outlet />;
}
