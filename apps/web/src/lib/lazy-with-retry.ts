import { createElement, lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOADING } from '@bdms/shared';

/**
 * Thrown when a screen's code could not be downloaded (product spec sections 8 and 9):
 * the first attempt plus 3 retries, waiting 1 s, 2 s and 3 s in between.
 */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  readonly chunkName: string;

  constructor(chunkName: string, options?: { cause?: unknown }) {
    super(`Failed to load chunk ${chunkName} after ${CHUNK_LOADING.maxRetries} attempts`, options);
    this.chunkName = chunkName;
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

export interface ImportRetryOptions {
  maxRetries?: number;
  baseDelayMs?: number;
  timeoutMs?: number;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Loading chunk ${name} timed out after ${ms} ms`)),
      ms,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Runs a dynamic import; on failure retries it up to `maxRetries` times, waiting
 * `baseDelayMs × retry number` before each retry. Every attempt is bounded by `timeoutMs`.
 */
export async function importWithRetry<T>(
  name: string,
  importer: () => Promise<T>,
  {
    maxRetries = CHUNK_LOADING.maxRetries,
    baseDelayMs = CHUNK_LOADING.baseDelayMs,
    timeoutMs = CHUNK_LOADING.timeoutMs,
  }: ImportRetryOptions = {},
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (attempt > 0) await wait(baseDelayMs * attempt);
    try {
      return await withTimeout(importer(), timeoutMs, name);
    } catch (error) {
      lastError = error;
    }
  }
  throw new ChunkLoadError(name, { cause: lastError });
}

/** Components whose load failed; "Try Again" replaces them so React asks for the code again. */
const failedLoaders = new Set<() => void>();

/** Lets every screen that failed to load try again (React caches a rejected `lazy`). */
export function resetFailedChunks(): void {
  const resets = [...failedLoaders];
  failedLoaders.clear();
  for (const reset of resets) reset();
}

export type LazyWithRetry<P extends object> = ComponentType<P> & {
  /** Starts downloading the code now (navigation preloading). */
  preload: () => Promise<unknown>;
};

/** `React.lazy` with the retry rule above; failures reach the nearest error boundary. */
export function lazyWithRetry<P extends object>(
  name: string,
  importer: () => Promise<{ default: ComponentType<P> }>,
): LazyWithRetry<P> {
  let Lazy: LazyExoticComponent<ComponentType<P>>;
  /** The screen itself, once its code has arrived by any way (a preload, the lazy component). */
  let loaded: ComponentType<P> | undefined;
  const load = () =>
    importer().then((module) => {
      loaded ??= module.default;
      return module;
    });
  const create = (): void => {
    Lazy = lazy(() =>
      importWithRetry(name, load).catch((error: unknown) => {
        failedLoaders.add(create);
        throw error;
      }),
    );
  };
  create();

  function LazyScreen(props: P) {
    // A screen whose code is already here renders at once, without suspending: a prerendered
    // page hydrates in one pass (main.tsx preloads it first). Chosen once per mount, so a
    // screen never switches between the two (that would remount it and lose its state).
    const [Screen] = useState(() => loaded ?? (Lazy as ComponentType<P>));
    return createElement(Screen, props);
  }
  LazyScreen.displayName = `Lazy(${name})`;
  LazyScreen.preload = load;
  return LazyScreen;
}
