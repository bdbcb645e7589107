import { api } from '../../../lib/api-client';

/**
 * The three calls the session itself makes. They bypass the API client's automatic
 * 401 → refresh → retry (`auth: false`, explicit bearer): the session applies its own rules to
 * them (product spec section 8, "User check fails", "Token refresh failure").
 */
export interface SessionApi {
  /** `POST /auth/refresh` → `{accessToken, expiresIn}`; the refresh token is kept. */
  refresh: (refreshToken: string) => Promise<unknown>;
  /** `GET /auth/me` → `{user}`. */
  me: (accessToken: string) => Promise<unknown>;
  /**
   * `POST /auth/logout` → `{loggedOut: true}`. The server also ends the access token and removes
   * the push subscription `pushEndpoint` (this browser's).
   */
  logout: (
    tokens: { accessToken: string; refreshToken: string },
    device?: { pushEndpoint?: string | null },
  ) => Promise<unknown>;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export const httpSessionApi: SessionApi = {
  refresh: (refreshToken) => api.post('/auth/refresh', { refreshToken }, { auth: false }),
  me: (accessToken) => api.get('/auth/me', { auth: false, headers: bearer(accessToken) }),
  logout: ({ accessToken, refreshToken }, device) =>
    api.post(
      '/auth/logout',
      device?.pushEndpoint ? { refreshToken, pushEndpoint: device.pushEndpoint } : { refreshToken },
      { auth: false, headers: bearer(accessToken) },
    ),
};
