import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { roleHome } from '@bdms/shared';
import { useAuth, type User } from '../../features/auth';

/**
 * The donor pages are a donor's own: another role opening one goes to its own home, as the
 * guard does for role routes.
 */
export function DonorOnly({ children }: { children: (user: User) => ReactNode }) {
  const { user } = useAuth();
  if (!user) return null;
  if (user.role !== 'donor') return <Navigate to={roleHome(user.role)} replace />;
  return children(user);
}
