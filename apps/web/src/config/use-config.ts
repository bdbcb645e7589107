import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  APP_NAME,
  FEATURE_FLAG_DEFAULTS,
  FEATURE_FLAG_NAMES,
  type FeatureFlag,
  type FeatureFlags,
  type PublicConfig,
} from '@bdms/shared';
import { api } from '../lib/api-client';
import { env } from './env';

/** Run-time configuration from `GET /api/v1/config` (API.md "Conventions"). */
export type AppConfig = Omit<PublicConfig, 'supportEmail'> & { supportEmail: string | null };

export const CONFIG_QUERY_KEY = ['config'] as const;
const CONFIG_STALE_MS = 5 * 60 * 1000;

/**
 * Reads the reply leniently: a flag the server does not send (an older server) keeps its default,
 * and a malformed value never hides or shows a surface by accident.
 */
export function normalizeConfig(data: unknown): AppConfig {
  const raw = (data && typeof data === 'object' ? data : {}) as Partial<Record<string, unknown>>;
  const rawFlags = (raw.flags && typeof raw.flags === 'object' ? raw.flags : {}) as Record<
    string,
    unknown
  >;
  const flags = { ...FEATURE_FLAG_DEFAULTS } as FeatureFlags;
  for (const name of FEATURE_FLAG_NAMES) {
    const value = rawFlags[name];
    if (typeof value === 'boolean') flags[name] = value;
  }
  return {
    appName: typeof raw.appName === 'string' && raw.appName ? raw.appName : APP_NAME,
    version: typeof raw.version === 'string' ? raw.version : '',
    flags,
    supportEmail:
      typeof raw.supportEmail === 'string' && raw.supportEmail
        ? raw.supportEmail
        : env.supportEmail,
    vapidPublicKey: typeof raw.vapidPublicKey === 'string' ? raw.vapidPublicKey : null,
    // Only a clear "yes" shows the demo banner; an older server says nothing.
    demoData: raw.demoData === true,
  };
}

export async function fetchConfig(): Promise<AppConfig> {
  return normalizeConfig(await api.get<unknown>('/config', { auth: false }));
}

export const configQueryOptions = {
  queryKey: CONFIG_QUERY_KEY,
  queryFn: fetchConfig,
  staleTime: CONFIG_STALE_MS,
} as const;

/** For code outside React (service-worker registration); shares the query's cache. */
export function loadConfig(queryClient: QueryClient): Promise<AppConfig> {
  return queryClient.fetchQuery(configQueryOptions);
}

export interface UseConfigResult {
  /** The server's config, or null while loading or after an error. */
  config: AppConfig | null;
  /** The server's flags, or the product's defaults while loading or after an error. */
  flags: FeatureFlags;
  supportEmail: string | null;
  isLoading: boolean;
}

export function useConfig(): UseConfigResult {
  const query = useQuery(configQueryOptions);
  return {
    config: query.data ?? null,
    flags: query.data?.flags ?? FEATURE_FLAG_DEFAULTS,
    supportEmail: query.data?.supportEmail ?? env.supportEmail,
    isLoading: query.isPending,
  };
}

export function useFeatureFlag(name: FeatureFlag): boolean {
  return useConfig().flags[name];
}
