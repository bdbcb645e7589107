import { useSyncExternalStore } from 'react';
import { storage } from '../../../lib/storage';

/**
 * "My requests": the requests sent from this device, kept in localStorage so that a guest finds
 * theirs again after the tab is closed (issue #18). Only the tracking code and what the guest
 * chose to show (blood type, hospital) — no phone, no name.
 */
export const MY_REQUESTS_KEY = 'bdms-my-requests';
const MAX_KEPT = 10;
const CODE = /^[0-9A-Z]{4,16}$/;

export interface MyRequest {
  code: string;
  /** When it was kept on this device (epoch ms). */
  savedAt: number;
  bloodType?: string;
  hospitalName?: string;
}

function parse(raw: string | null): MyRequest[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (item): item is MyRequest =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as MyRequest).code === 'string' &&
        CODE.test((item as MyRequest).code) &&
        typeof (item as MyRequest).savedAt === 'number',
    );
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: MyRequest[] = [];
const EMPTY: MyRequest[] = [];

function snapshot(): MyRequest[] {
  const raw = storage.get(MY_REQUESTS_KEY);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parse(raw);
  }
  return cached;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === MY_REQUESTS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(items: MyRequest[]): void {
  storage.set(MY_REQUESTS_KEY, JSON.stringify(items));
  for (const listener of listeners) listener();
}

/** Keeps a request (newest first, at most 10); seen again, it keeps its place and details. */
export function rememberRequest(entry: Omit<MyRequest, 'savedAt'>, now = Date.now()): void {
  if (!CODE.test(entry.code)) return;
  const items = snapshot();
  const known = items.find((item) => item.code === entry.code);
  if (known && (known.bloodType || !entry.bloodType)) return;
  const next: MyRequest = { ...known, ...entry, savedAt: known?.savedAt ?? now };
  write([next, ...items.filter((item) => item.code !== entry.code)].slice(0, MAX_KEPT));
}

export function forgetRequest(code: string): void {
  write(snapshot().filter((item) => item.code !== code));
}

/** The kept requests; none while a prerendered page is adopted (the server knows none). */
export function useMyRequests(): MyRequest[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}
