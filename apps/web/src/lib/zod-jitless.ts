/**
 * The CSP forbids eval, and zod probes for it (`new Function('')`) the first time a schema runs:
 * the probe's error is caught, but the browser still reports a CSP violation. Zod's `jitless`
 * setting skips the probe. Zod keeps its settings on `globalThis.__zod_globalConfig` (shared by
 * every copy of zod, and kept when already there), so the setting is made before zod loads,
 * without zod on the first page (`z.config()` would cost ~4 KB gzip there).
 */
export function makeZodJitless(): void {
  const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  // The same object zod holds when it has loaded already.
  (holder.__zod_globalConfig ??= {}).jitless = true;
}
