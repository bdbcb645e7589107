import { STORAGE_KEYS } from '@bdms/shared';
import { storage } from '../../../lib/storage';
import { deobfuscate, obfuscate } from './obfuscation';
import type { StoredSession } from './session-rules';

/**
 * Where the session lives (product spec section 9): an IndexedDB database named after the
 * product (`STORAGE_KEYS.session`), with a localStorage copy under the same name when IndexedDB
 * is unavailable or fails (private windows, old WebViews, a full disk). The localStorage keys
 * `token`, `refreshToken`, `user` and `authState` are kept in sync for code that reads them.
 * Tokens are obfuscated at rest (obfuscation.ts: not encryption). Nothing here throws: a storage
 * failure leaves the session in memory for this visit only.
 */
export interface SessionStore {
  /** The stored record with tokens readable again, or null. Not yet checked for integrity. */
  read: () => Promise<unknown>;
  write: (session: StoredSession) => Promise<void>;
  clear: () => Promise<void>;
}

const DB_NAME = STORAGE_KEYS.session;
const OBJECT_STORE = 'sessions';
const RECORD_KEY = 'current';

/** `authState` says whether a session exists, so the first render need not wait for IndexedDB. */
export interface AuthStateHint {
  isAuthenticated: true;
  userId: string;
  expiresAt: number;
}

export function readAuthStateHint(): AuthStateHint | null {
  try {
    const value = JSON.parse(storage.get(STORAGE_KEYS.authState) ?? 'null') as AuthStateHint | null;
    return value?.isAuthenticated === true ? value : null;
  } catch {
    return null;
  }
}

type AtRest = Omit<StoredSession, 'tokens'> & {
  tokens: { accessToken: string; refreshToken: string; expiresIn: number };
};

function toRecord(session: StoredSession): AtRest {
  return {
    ...session,
    tokens: {
      ...session.tokens,
      accessToken: obfuscate(session.tokens.accessToken),
      refreshToken: obfuscate(session.tokens.refreshToken),
    },
  };
}

/** Tokens that cannot be read back become empty, which the integrity check then refuses. */
function fromRecord(record: unknown): unknown {
  if (!record || typeof record !== 'object') return record ?? null;
  const { tokens } = record as { tokens?: unknown };
  if (!tokens || typeof tokens !== 'object') return record;
  const { accessToken, refreshToken } = tokens as Record<string, unknown>;
  return {
    ...record,
    tokens: {
      ...tokens,
      accessToken: deobfuscate(accessToken) ?? '',
      refreshToken: deobfuscate(refreshToken) ?? '',
    },
  };
}

export function createSessionStore({
  indexedDB: getFactory = () => globalThis.indexedDB,
}: { indexedDB?: () => IDBFactory | undefined } = {}): SessionStore {
  let connection: Promise<IDBDatabase> | null = null;

  const open = (): Promise<IDBDatabase> => {
    connection ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = getFactory();
      if (!factory) throw new Error('IndexedDB is not available');
      const req = factory.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(OBJECT_STORE);
      req.onblocked = () => reject(new Error('IndexedDB is blocked'));
      req.onerror = () => reject(req.error ?? new Error('IndexedDB failed to open'));
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgrading or deleting the database: let it, and reconnect next time.
        db.onversionchange = () => {
          db.close();
          connection = null;
        };
        resolve(db);
      };
    }).catch((error: unknown) => {
      connection = null;
      throw error;
    });
    return connection;
  };

  /** Resolves once the transaction has committed, so a written session survives a crash. */
  const withStore = async <T>(
    mode: IDBTransactionMode,
    run: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> => {
    const db = await open();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(OBJECT_STORE, mode);
      const req = run(tx.objectStore(OBJECT_STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    });
  };

  const readFallback = (): unknown => {
    try {
      return JSON.parse(storage.get(DB_NAME) ?? 'null');
    } catch {
      return null;
    }
  };

  return {
    async read() {
      let record: unknown = null;
      try {
        record = await withStore('readonly', (store) => store.get(RECORD_KEY));
      } catch (error) {
        console.warn('[session] IndexedDB unavailable, reading the localStorage copy', error);
      }
      // Also after a write that had to fall back while IndexedDB was failing.
      return fromRecord(record ?? readFallback());
    },

    async write(session) {
      const record = toRecord(session);
      try {
        await withStore('readwrite', (store) => store.put(record, RECORD_KEY));
        storage.remove(DB_NAME);
      } catch (error) {
        console.warn('[session] IndexedDB unavailable, using localStorage', error);
        storage.set(DB_NAME, JSON.stringify(record));
      }
      storage.set(STORAGE_KEYS.token, record.tokens.accessToken);
      storage.set(STORAGE_KEYS.refreshToken, record.tokens.refreshToken);
      storage.set(STORAGE_KEYS.user, JSON.stringify(session.user));
      const hint: AuthStateHint = {
        isAuthenticated: true,
        userId: session.userId,
        expiresAt: session.expiresAt,
      };
      storage.set(STORAGE_KEYS.authState, JSON.stringify(hint));
    },

    async clear() {
      for (const key of [
        DB_NAME,
        STORAGE_KEYS.token,
        STORAGE_KEYS.refreshToken,
        STORAGE_KEYS.user,
        STORAGE_KEYS.authState,
      ]) {
        storage.remove(key);
      }
      try {
        await withStore('readwrite', (store) => store.delete(RECORD_KEY));
      } catch {
        // Nothing stored there, or IndexedDB is unavailable: the localStorage copy is gone.
      }
    },
  };
}
