import { describe, expect, it, vi } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { makeSession, makeUser } from '../../../test/session';
import { deobfuscate } from './obfuscation';
import { createSessionStore, readAuthStateHint } from './session-store';

/** The record exactly as IndexedDB holds it, without the store's decoding. */
function readRawRecord(factory: IDBFactory): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve, reject) => {
    const open = factory.open('bdms-session');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result
        .transaction('sessions', 'readonly')
        .objectStore('sessions')
        .get('current');
      request.onsuccess = () => {
        open.result.close();
        resolve(request.result as Record<string, unknown> | undefined);
      };
      request.onerror = () => reject(request.error);
    };
  });
}

const failingFactory = (): IDBFactory =>
  ({
    open: () => {
      throw new Error('IndexedDB disabled');
    },
  }) as unknown as IDBFactory;

describe('session store', () => {
  it('keeps the session in an IndexedDB database named after the product, tokens obfuscated', async () => {
    const factory = new IDBFactory();
    const store = createSessionStore({ indexedDB: () => factory });
    const session = makeSession();
    await store.write(session);

    expect(await store.read()).toEqual(session);
    const raw = await readRawRecord(factory);
    const tokens = raw?.tokens as Record<string, unknown>;
    expect(tokens.accessToken).not.toBe(session.tokens.accessToken);
    expect(deobfuscate(tokens.accessToken)).toBe(session.tokens.accessToken);
    expect(deobfuscate(tokens.refreshToken)).toBe(session.tokens.refreshToken);
    expect(window.localStorage.getItem('bdms-session')).toBeNull();
  });

  it('keeps token, refreshToken, user and authState in localStorage in sync', async () => {
    const store = createSessionStore({ indexedDB: () => new IDBFactory() });
    const session = makeSession(makeUser({ id: 'u-9' }));
    await store.write(session);

    expect(deobfuscate(window.localStorage.getItem('token'))).toBe('access-1');
    expect(deobfuscate(window.localStorage.getItem('refreshToken'))).toBe('refresh-token-1');
    expect(JSON.parse(window.localStorage.getItem('user')!)).toEqual(session.user);
    expect(readAuthStateHint()).toEqual({
      isAuthenticated: true,
      userId: 'u-9',
      expiresAt: session.expiresAt,
    });

    await store.clear();
    for (const key of ['token', 'refreshToken', 'user', 'authState', 'bdms-session']) {
      expect(window.localStorage.getItem(key)).toBeNull();
    }
    expect(await store.read()).toBeNull();
  });

  it('falls back to localStorage when IndexedDB is unavailable', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = createSessionStore({ indexedDB: () => undefined });
    const session = makeSession();
    await store.write(session);

    const copy = JSON.parse(window.localStorage.getItem('bdms-session')!);
    expect(copy.userId).toBe(session.userId);
    expect(copy.tokens.accessToken).not.toBe(session.tokens.accessToken);
    expect(await store.read()).toEqual(session);
  });

  it('falls back to localStorage when IndexedDB fails, and reads that copy back', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const store = createSessionStore({ indexedDB: failingFactory });
    const session = makeSession();
    await store.write(session);
    expect(await store.read()).toEqual(session);

    // IndexedDB works again later: the copy written meanwhile is still found.
    const recovered = createSessionStore({ indexedDB: () => new IDBFactory() });
    expect(await recovered.read()).toEqual(session);
    await recovered.clear();
    expect(await recovered.read()).toBeNull();
  });

  it('reads tokens it cannot decode as empty (the integrity check then refuses them)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    window.localStorage.setItem(
      'bdms-session',
      JSON.stringify({ ...makeSession(), tokens: { accessToken: 'x', refreshToken: 'y' } }),
    );
    const store = createSessionStore({ indexedDB: () => undefined });
    expect(await store.read()).toMatchObject({ tokens: { accessToken: '', refreshToken: '' } });
  });
});
