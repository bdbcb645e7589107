import { useCallback, useEffect, useRef, useState } from 'react';

export type GeolocationStatus =
  'idle' | 'locating' | 'found' | 'denied' | 'timeout' | 'unavailable' | 'unsupported';

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** How long to wait for a fix; a cheap phone indoors can take a while. */
export const LOCATE_TIMEOUT_MS = 15_000;

/**
 * The browser's location, asked for only when the user presses "Use my location". Rounded to
 * about 1 m: enough for distances, and it never leaves the page except in the nearby call.
 */
export function useGeolocation() {
  const [status, setStatus] = useState<GeolocationStatus>('idle');
  const [point, setPoint] = useState<GeoPoint | null>(null);
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  const locate = useCallback(() => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      setStatus('unsupported');
      return;
    }
    setStatus('locating');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (!isMounted.current) return;
        setPoint({
          latitude: Math.round(position.coords.latitude * 1e5) / 1e5,
          longitude: Math.round(position.coords.longitude * 1e5) / 1e5,
        });
        setStatus('found');
      },
      (error) => {
        if (!isMounted.current) return;
        setStatus(
          error.code === error.PERMISSION_DENIED
            ? 'denied'
            : error.code === error.TIMEOUT
              ? 'timeout'
              : 'unavailable',
        );
      },
      { enableHighAccuracy: false, timeout: LOCATE_TIMEOUT_MS, maximumAge: 300_000 },
    );
  }, []);

  /** Forgets the location (the user chose a PIN code or the whole directory). */
  const clear = useCallback(() => {
    setPoint(null);
    setStatus('idle');
  }, []);

  return { status, point, locate, clear };
}
