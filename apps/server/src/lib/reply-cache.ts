import { z } from 'zod';
import { weakEtag } from './http-cache';

/**
 * A public reply's data, its weak ETag (hashed once) and, once a route has sent it, the
 * serialised JSON body, so a cache hit costs neither a query, nor hashing, nor serialising.
 */
export interface CachedReply<T> {
  readonly data: T;
  readonly etag: string;
  /**
   * `{"success":true,"data":…}` as the route's response schema encodes it, in UTF-8 bytes (a
   * string with non-Latin characters, as articles have, would be encoded again on every write);
   * set on first send.
   */
  body?: Buffer;
}

export function toCachedReply<T>(data: T): CachedReply<T> {
  return { data, etag: weakEtag(data) };
}

/**
 * The body a route would send for `data`: encoded with the route's 200 schema exactly like the
 * zod serializer does (so transforms and stripping are the same), memoised on the entry.
 */
export function cachedBody<T>(entry: CachedReply<T>, schema: z.ZodType): Buffer {
  entry.body ??= encode(entry.data, schema);
  return entry.body;
}

function encode(data: unknown, schema: z.ZodType): Buffer {
  return Buffer.from(JSON.stringify(z.encode(schema, { success: true, data })));
}

const encodedBodies = new WeakMap<object, Buffer>();

/**
 * The body a route would send for `data` (as `cachedBody`), kept with the object itself: for
 * replies that are not cached publicly (no ETag to compute) but whose data object is reused
 * while it does not change.
 */
export function encodedOnce(data: object, schema: z.ZodType): Buffer {
  let body = encodedBodies.get(data);
  if (body === undefined) {
    body = encode(data, schema);
    encodedBodies.set(data, body);
  }
  return body;
}

export interface ReplyCacheOptions {
  /** At most this many entries; the least recently used is dropped first. */
  max: number;
  /** Entries older than this are computed again; no TTL when omitted. */
  ttlMs?: number;
  now?: () => number;
}

interface Slot<T> {
  value: Promise<CachedReply<T>>;
  expires: number;
}

/**
 * A bounded LRU of computed public replies, keyed by the normalised, validated query. Callers
 * asking for the same key while it is being computed share that computation (50 connections
 * asking for the same page cost one query). A failure is not remembered. `clear()` after a write
 * that changes what the cached replies show; a computation that was running when it was cleared
 * is not stored.
 */
export function createReplyCache<T>(options: ReplyCacheOptions) {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? Number.POSITIVE_INFINITY;
  const slots = new Map<string, Slot<T>>();
  let generation = 0;
  /** The key at the back of the Map's order: asked again (a busy page), nothing to move. */
  let newest: string | undefined;

  function store(key: string, slot: Slot<T>) {
    slots.set(key, slot);
    newest = key;
    while (slots.size > options.max) slots.delete(slots.keys().next().value as string);
  }

  return {
    get(key: string, compute: () => Promise<T>): Promise<CachedReply<T>> {
      const slot = slots.get(key);
      if (slot && slot.expires > now()) {
        // Most recently used goes to the back of the Map's insertion order.
        if (key !== newest) {
          slots.delete(key);
          slots.set(key, slot);
          newest = key;
        }
        return slot.value;
      }
      if (slot) slots.delete(key);
      const started = generation;
      const value = compute().then(toCachedReply);
      const fresh: Slot<T> = { value, expires: Number.POSITIVE_INFINITY };
      store(key, fresh);
      value.then(
        () => {
          if (generation !== started) {
            if (slots.get(key) === fresh) slots.delete(key);
            return;
          }
          fresh.expires = now() + ttl;
        },
        () => {
          if (slots.get(key) === fresh) slots.delete(key);
        },
      );
      return value;
    },

    /** Forget every entry (after a write that changes what they show). */
    clear(): void {
      generation += 1;
      slots.clear();
    },

    get size(): number {
      return slots.size;
    },
  };
}

export type ReplyCache<T> = ReturnType<typeof createReplyCache<T>>;

/** A stable key for a validated query: its defined fields in name order. */
export function cacheKey(query: object): string {
  return JSON.stringify(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
