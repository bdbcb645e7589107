import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/toast';
import { api, setAuthHandlers } from '../../lib/api-client';
import { CONFIG_QUERY_KEY } from '../../config/use-config';
import { AuthActionsContext, AuthContext } from './auth-context';
import {
  createSessionManager,
  hasSessionHint,
  type SessionManager,
} from './session/session-manager';
import type { AuthActions, AuthState } from './types';

/**
 * Holds the session (session/session-manager.ts) for the whole app and plugs it into the API
 * client: the stored access token on every call, and the 401 → refresh → retry-once rule.
 *
 * The first render is "loading" only when `authState` says a session is stored; anonymous
 * visitors (most of the home page's) never see "Authenticating...".
 */
export function AuthProvider({
  children,
  manager: givenManager,
  releaseDevice,
}: {
  children: ReactNode;
  /** Tests pass their own (fake clock, fake network). */
  manager?: SessionManager;
  /** What sign-out releases on this device (the app passes the push unsubscription). */
  releaseDevice?: () => Promise<string | null>;
}) {
  const [manager] = useState(() => givenManager ?? createSessionManager({ releaseDevice }));
  const [state, setState] = useState<AuthState>(() => ({
    status: hasSessionHint() ? 'loading' : 'unauthenticated',
    user: null,
  }));
  const toast = useToast();
  const queryClient = useQueryClient();
  const { t } = useTranslation('errors');
  // Read when the session expires, so a language change does not restart the session.
  const notifyExpired = useRef(() => {});
  useEffect(() => {
    notifyExpired.current = () => toast.error(t('SESSION_EXPIRED'));
  });

  useEffect(() => {
    const unsubscribe = manager.subscribe(({ user, reason }) => {
      setState(
        user
          ? { status: 'authenticated', user }
          : { status: 'unauthenticated', user: null, signOutReason: reason },
      );
      // Restoration at start-up finding no usable session ('none', 'invalid') leaves nothing of
      // an account in memory, and wiping then would cancel the first page's own queries (those
      // of a public page already fetching, e.g. from the service worker's caches).
      if (user || reason === 'none' || reason === 'invalid') return;
      // Nothing of the last account stays in memory on a shared phone; flags are not personal.
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== CONFIG_QUERY_KEY[0],
      });
      if (reason === 'expired') notifyExpired.current();
    });
    setAuthHandlers({
      getAccessToken: manager.getAccessToken,
      refresh: manager.refreshShared,
      onSessionExpired: () => void manager.expire(),
    });
    void manager.restore();
    return () => {
      unsubscribe();
      setAuthHandlers(null);
      manager.dispose();
    };
  }, [manager, queryClient]);

  const actions = useMemo<AuthActions>(
    () => ({
      login: async (credentials) =>
        manager.signIn(await api.post('/auth/login', credentials, { auth: false })),
      requestOtp: async (target) => {
        await api.post('/auth/login-otp', target, { auth: false });
      },
      loginWithOtp: async (input) =>
        manager.signIn(await api.post('/auth/login-otp', input, { auth: false })),
      register: async (input) =>
        manager.signIn(await api.post('/auth/register', input, { auth: false })),
      adoptSession: async (result) => manager.signIn(result),
      logout: manager.logout,
      refreshUser: manager.checkUser,
      updateUser: manager.updateUser,
      replaceTokens: manager.replaceTokens,
    }),
    [manager],
  );

  return (
    <AuthActionsContext.Provider value={actions}>
      <AuthContext.Provider value={state}>{children}</AuthContext.Provider>
    </AuthActionsContext.Provider>
  );
}
