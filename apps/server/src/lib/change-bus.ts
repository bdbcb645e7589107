import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * Tells every server process that something cached has changed (issue #19): a feature flag,
 * FAQ counts, an article's downloads. On PostgreSQL each instance holds ONE extra connection
 * that LISTENs on `bdms_changes`; `publish` sends a NOTIFY through it, which PostgreSQL delivers
 * to every listener (this instance included) within milliseconds. On the embedded PGlite there
 * is one process, so the bus is in-process only.
 *
 * A message says only "topic X changed": subscribers drop their cached copy and read again, so
 * a lost message costs freshness, never correctness. When the listening connection drops,
 * messages sent meanwhile are lost: on reconnecting, every subscriber is called as if its topic
 * had changed.
 */
export interface ChangeBus {
  /** Tells every instance (this one too) that `topic` changed. Never throws. */
  publish(topic: string): Promise<void>;
  /** Calls `listener` whenever `topic` changes on any instance; returns the unsubscribe. */
  subscribe(topic: string, listener: () => void): () => void;
  /** Stops listening; idempotent. */
  close(): Promise<void>;
}

export const CHANGE_CHANNEL = 'bdms_changes';
/** Topics are short names; a NOTIFY payload must stay under 8000 bytes anyway. */
const TOPIC = /^[a-z][a-z0-9._-]{0,99}$/;

export interface ChangeBusLogger {
  warn(details: object, message: string): void;
}

/** Called with the message's data; null when the bus may have missed messages (reconnected). */
type Listener = (data: string | null) => void;

function createListeners() {
  const byTopic = new Map<string, Set<Listener>>();
  const call = (listener: Listener, data: string | null) => {
    try {
      listener(data);
    } catch {
      // One cache's failure to drop its copy must not stop the others.
    }
  };
  return {
    add(topic: string, listener: Listener): () => void {
      if (!TOPIC.test(topic)) throw new Error(`invalid change topic: ${topic}`);
      let set = byTopic.get(topic);
      if (!set) byTopic.set(topic, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(topic: string, data: string | null = null) {
      for (const listener of byTopic.get(topic) ?? []) call(listener, data);
    },
    emitAll() {
      for (const set of byTopic.values()) for (const listener of set) call(listener, null);
    },
  };
}

/** One process (PGlite, unit tests): subscribers are called at once, in this process only. */
export function createMemoryChangeBus(): ChangeBus {
  const listeners = createListeners();
  return {
    async publish(topic) {
      listeners.emit(topic);
    },
    subscribe: (topic, listener) => listeners.add(topic, () => listener()),
    async close() {},
  };
}

export interface PostgresChangeBusOptions {
  connectionString: string;
  logger?: ChangeBusLogger;
  /** First wait before reconnecting after the connection dropped; doubles up to 30 s. */
  reconnectDelayMs?: number;
  /**
   * Sends a NOTIFY's payload another way than the listening connection: the server's pool, so
   * an instance that can write can always announce what it wrote, even while its listening
   * connection is being re-opened.
   */
  notifyVia?: (channel: string, payload: string) => Promise<unknown>;
}

/**
 * LISTEN/NOTIFY on one dedicated connection. `start()` resolves once it listens (the server
 * starts only then); afterwards a dropped connection is re-opened in the background.
 */
export function createPostgresChangeBus(options: PostgresChangeBusOptions) {
  const listeners = createListeners();
  const origin = randomUUID();
  const firstDelay = options.reconnectDelayMs ?? 500;
  let client: pg.Client | null = null;
  let closed = false;
  let delay = firstDelay;
  let retry: NodeJS.Timeout | null = null;

  function onNotification(message: pg.Notification) {
    if (message.channel !== CHANGE_CHANNEL || !message.payload) return;
    try {
      const parsed = JSON.parse(message.payload) as {
        topic?: unknown;
        origin?: unknown;
        data?: unknown;
      };
      // This instance's own messages were handled when published.
      if (parsed.origin === origin) return;
      if (typeof parsed.topic === 'string') {
        listeners.emit(parsed.topic, typeof parsed.data === 'string' ? parsed.data : null);
      }
    } catch {
      // Not one of ours.
    }
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: `bdms-changes-${origin.slice(0, 8)}`,
      keepAlive: true,
    });
    next.on('notification', onNotification);
    next.on('error', () => {
      // 'end' follows; reconnecting happens there.
    });
    next.on('end', () => {
      if (client !== next) return;
      client = null;
      if (closed) return;
      options.logger?.warn({}, 'the change bus lost its PostgreSQL connection; reconnecting');
      schedule();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  }

  function schedule() {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().then(
        () => {
          delay = firstDelay;
          // Whatever was published while this instance was deaf: assume everything changed.
          listeners.emitAll();
        },
        (error: unknown) => {
          options.logger?.warn(
            { err: error, retryInMs: delay },
            'the change bus could not reconnect to PostgreSQL',
          );
          delay = Math.min(delay * 2, 30_000);
          schedule();
        },
      );
    }, delay);
    retry.unref();
  }

  async function notify(payload: Record<string, string>) {
    const via = client;
    const text = JSON.stringify({ ...payload, origin });
    try {
      if (options.notifyVia) await options.notifyVia(CHANGE_CHANNEL, text);
      else if (via) await via.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, text]);
    } catch (error) {
      options.logger?.warn({ err: error, topic: payload.topic }, 'a change could not be announced');
    }
  }

  const bus: ChangeBus & {
    start(): Promise<void>;
    isListening(): boolean;
    /**
     * Tells the OTHER instances `data` about `topic` (this one already knows). At most 7,000
     * characters (a NOTIFY payload stays under 8,000 bytes).
     */
    publishData(topic: string, data: string): Promise<void>;
    /** Calls `listener` with each other instance's data for `topic`; null after a reconnect. */
    subscribeData(topic: string, listener: (data: string | null) => void): () => void;
  } = {
    start: connect,
    isListening: () => client !== null,
    async publishData(topic, data) {
      if (!TOPIC.test(topic)) throw new Error(`invalid change topic: ${topic}`);
      await notify(data.length <= 7_000 ? { topic, data } : { topic });
    },
    subscribeData: (topic, listener) => listeners.add(topic, listener),
    async publish(topic) {
      if (!TOPIC.test(topic)) throw new Error(`invalid change topic: ${topic}`);
      // Always tell this instance at once, even if the NOTIFY cannot be sent now.
      listeners.emit(topic);
      await notify({ topic });
    },
    subscribe: (topic, listener) => listeners.add(topic, () => listener()),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
  return bus;
}

export type PostgresChangeBus = ReturnType<typeof createPostgresChangeBus>;
