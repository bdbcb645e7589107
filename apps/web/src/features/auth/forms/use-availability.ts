import { useCallback, useEffect, useRef, useState } from 'react';

export type AvailabilityStatus = 'idle' | 'checking' | 'available' | 'taken';

/** Wait this long after the last keystroke before asking (spec: check before registering). */
export const AVAILABILITY_DEBOUNCE_MS = 500;

/**
 * Live "is this e-mail / phone free?" check for the register form. `value` is the normalised
 * value, or null while it is not valid yet (nothing is asked). Asks 500 ms after typing stops, or
 * at once via `checkNow` (on blur). Answers are remembered per value; a stale answer never shows;
 * a failure (rate limit, offline) shows nothing: the server still checks on submit.
 */
export function useAvailability(
  check: (value: string, signal: AbortSignal) => Promise<{ available: boolean }>,
  value: string | null,
): { status: AvailabilityStatus; checkNow: () => void } {
  const [result, setResult] = useState<{ value: string; status: AvailabilityStatus } | null>(null);
  const answers = useRef(new Map<string, boolean>());
  const inFlight = useRef<{ value: string; controller: AbortController } | null>(null);

  const run = useCallback(
    (target: string) => {
      const known = answers.current.get(target);
      if (known !== undefined) {
        setResult({ value: target, status: known ? 'available' : 'taken' });
        return;
      }
      if (inFlight.current?.value === target) return;
      inFlight.current?.controller.abort();
      const controller = new AbortController();
      inFlight.current = { value: target, controller };
      setResult({ value: target, status: 'checking' });
      check(target, controller.signal)
        .then(
          ({ available }) => {
            answers.current.set(target, available);
            if (controller.signal.aborted) return;
            setResult({ value: target, status: available ? 'available' : 'taken' });
          },
          () => {
            if (controller.signal.aborted) return;
            setResult({ value: target, status: 'idle' });
          },
        )
        .finally(() => {
          if (inFlight.current?.controller === controller) inFlight.current = null;
        });
    },
    [check],
  );

  useEffect(() => {
    if (!value) return;
    const timer = setTimeout(() => run(value), AVAILABILITY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, run]);

  useEffect(() => () => inFlight.current?.controller.abort(), []);

  return {
    status: value && result?.value === value ? result.status : 'idle',
    checkNow: () => {
      if (value) run(value);
    },
  };
}
