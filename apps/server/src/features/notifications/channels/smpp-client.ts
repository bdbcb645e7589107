import smpp from 'smpp';
import type { PDU, Session } from 'smpp';

/**
 * India's DLT (TRAI TCCCPR 2018) identifiers, sent as the optional parameters most Indian SMPP
 * aggregators read (Jio, Airtel, Vodafone Idea and the aggregators in front of them):
 * 0x1400 the principal entity id (PE ID), 0x1401 the content template id. Both are octet
 * strings of ASCII digits without a terminator. An aggregator with another convention changes
 * only these two tags.
 */
export const DLT_ENTITY_ID_TAG = 0x1400;
export const DLT_TEMPLATE_ID_TAG = 0x1401;
smpp.addTLV('dlt_entity_id', { id: DLT_ENTITY_ID_TAG, type: smpp.types.tlv.string });
smpp.addTLV('dlt_template_id', { id: DLT_TEMPLATE_ID_TAG, type: smpp.types.tlv.string });

/** SMPP v3.4 §5.2.19 data_coding: 0 the SMSC's default alphabet (GSM 03.38), 8 UCS-2. */
export const DATA_CODING_GSM = 0;
export const DATA_CODING_UCS2 = 8;
/** §5.2.12 esm_class bits 2–5 = 0001: the deliver_sm is an SMSC delivery receipt. */
const ESM_CLASS_RECEIPT = 0x04;

export interface SmppEndpoint {
  host: string;
  port: number;
  systemId: string;
  password: string;
}

/** `smpp://system_id:password@host:port` (port 2775 when left out). */
export function parseSmppUrl(url: string): SmppEndpoint {
  const parsed = new URL(url);
  if (parsed.protocol !== 'smpp:') throw new Error('SMS_SMPP_URL must be an smpp:// URL');
  if (!parsed.hostname || !parsed.username) {
    throw new Error('SMS_SMPP_URL must name the host and the system_id (smpp://id:password@host)');
  }
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : 2775,
    systemId: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}

export interface SmsSubmit {
  /** E.164, +91XXXXXXXXXX. */
  to: string;
  text: string;
  /** The DLT template id this text was registered under. */
  templateId?: string | null;
}

export interface SmsReceipt {
  messageId: string;
  /** DELIVRD, UNDELIV, EXPIRED, REJECTD… */
  status: string;
  error: string | null;
}

export interface SmsInbound {
  /** E.164 when the number is Indian, else as the SMSC wrote it. */
  from: string;
  text: string;
}

/** An error the SMSC gave for this one message: sending it again would fail the same way. */
export class SmsRejectedError extends Error {
  constructor(readonly commandStatus: number) {
    super(`The SMSC refused the message (command_status 0x${commandStatus.toString(16)}).`);
  }
}

export interface SmppLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface SmppClientOptions {
  url: string;
  /** The DLT-registered header (6 letters for transactional/service SMS). */
  senderId: string;
  entityId: string | null;
  /** At most this many submit_sm wait for their response at once. */
  windowSize?: number;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** How long a send waits for the link to come up before it fails (the outbox retries it). */
  bindWaitMs?: number;
  responseTimeoutMs?: number;
  enquireLinkMs?: number;
  onReceipt?: (receipt: SmsReceipt) => Promise<void>;
  onInbound?: (message: SmsInbound) => Promise<void>;
  logger?: SmppLogger;
}

export interface SmppHealth {
  bound: boolean;
  /** When the link last went down while it was wanted (null while bound). */
  downSince: Date | null;
  lastError: string | null;
  inFlight: number;
}

const quiet: SmppLogger = { info() {}, warn() {} };

/** GSM 03.38 basic set (and the extension characters, which cost two septets). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '\f^{}\\[~]|€';

/** Whether `text` can go in the GSM 7-bit alphabet; else it is sent as UCS-2. */
export function isGsm7(text: string): boolean {
  for (const char of text) {
    if (!GSM_BASIC.includes(char) && !GSM_EXTENDED.includes(char)) return false;
  }
  return true;
}

/**
 * How much of one SMS `text` uses: GSM-7 counts septets (extension characters two) against
 * 160; UCS-2 counts UTF-16 units against 70 (3GPP TS 23.038, TS 23.040).
 */
export function smsLength(text: string): {
  encoding: 'gsm7' | 'ucs2';
  used: number;
  limit: number;
} {
  if (isGsm7(text)) {
    let used = 0;
    for (const char of text) used += GSM_EXTENDED.includes(char) ? 2 : 1;
    return { encoding: 'gsm7', used, limit: 160 };
  }
  return { encoding: 'ucs2', used: text.length, limit: 70 };
}

/** India's numbers go to the SMSC as 91XXXXXXXXXX, international TON/ISDN NPI. */
function toAddress(e164: string): string {
  return e164.replace(/^\+/, '');
}

function fromAddress(address: string): string {
  const digits = address.replace(/^\+/, '');
  if (/^91[6-9]\d{9}$/.test(digits)) return `+${digits}`;
  if (/^[6-9]\d{9}$/.test(digits)) return `+91${digits}`;
  return address;
}

function messageText(pdu: PDU): string {
  const field = pdu.short_message as { message?: unknown } | string | undefined;
  const message =
    typeof field === 'string' ? field : typeof field?.message === 'string' ? field.message : '';
  if (message) return message;
  const payload = pdu.message_payload as { message?: unknown } | undefined;
  return typeof payload?.message === 'string' ? payload.message : '';
}

/** SMPP v3.4 Appendix B receipt text: `id:… sub:… dlvrd:… submit date:… done date:… stat:… err:…`. */
export function parseReceipt(pdu: PDU): SmsReceipt | null {
  const text = messageText(pdu);
  const id = (pdu.receipted_message_id as string | undefined) ?? /\bid:(\S+)/i.exec(text)?.[1];
  if (!id) return null;
  const status = /\bstat:(\S+)/i.exec(text)?.[1] ?? 'UNKNOWN';
  const error = /\berr:(\S+)/i.exec(text)?.[1] ?? null;
  return { messageId: id, status: status.toUpperCase(), error };
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * One SMPP v3.4 link to the aggregator's SMSC: bound as a transceiver (submits go out, receipts
 * and replies come in on the same link), kept up with enquire_link, brought back with
 * exponential backoff when it drops. At most `windowSize` submit_sm are outstanding; a submit
 * whose response never came (link lost, timeout) rejects, so its outbox row is retried, and
 * one whose response came is never submitted again by this client.
 */
export function createSmppClient(options: SmppClientOptions) {
  const endpoint = parseSmppUrl(options.url);
  const logger = options.logger ?? quiet;
  const windowSize = options.windowSize ?? 10;
  const reconnectBaseMs = options.reconnectBaseMs ?? 1_000;
  const reconnectMaxMs = options.reconnectMaxMs ?? 60_000;
  const bindWaitMs = options.bindWaitMs ?? 5_000;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;

  let session: Session | null = null;
  let bound = false;
  let wanted = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let downSince: Date | null = null;
  let lastError: string | null = null;
  let inFlight = 0;
  const bindWaiters = new Set<Waiter>();
  const windowWaiters: (() => void)[] = [];
  /** Rejecters of the submits waiting on the current link. */
  const outstanding = new Set<(error: Error) => void>();

  function markDown(reason: string) {
    bound = false;
    lastError = reason;
    if (!downSince) downSince = new Date();
    for (const reject of outstanding) reject(new Error(`SMPP link lost: ${reason}`));
    outstanding.clear();
  }

  function scheduleReconnect() {
    if (!wanted || reconnectTimer) return;
    const delay = Math.min(reconnectMaxMs, reconnectBaseMs * 2 ** failures);
    failures += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
    reconnectTimer.unref();
  }

  async function answerDeliver(current: Session, pdu: PDU) {
    let status = smpp.ESME_ROK;
    try {
      if ((Number(pdu.esm_class) & 0x3c) === ESM_CLASS_RECEIPT) {
        const receipt = parseReceipt(pdu);
        if (receipt && options.onReceipt) await options.onReceipt(receipt);
      } else if (options.onInbound) {
        await options.onInbound({
          from: fromAddress(String(pdu.source_addr ?? '')),
          text: messageText(pdu),
        });
      }
    } catch (error) {
      // The SMSC keeps the message and delivers it again later.
      status = smpp.ESME_RX_T_APPN;
      logger.warn({ err: error }, 'SMPP deliver_sm could not be processed; the SMSC will retry');
    }
    current.send(pdu.response({ command_status: status }));
  }

  function connect() {
    if (!wanted) return;
    const current = smpp.connect({
      host: endpoint.host,
      port: endpoint.port,
      auto_enquire_link_period: options.enquireLinkMs ?? 30_000,
    });
    session = current;
    let closed = false;
    const onDown = (reason: string) => {
      if (closed) return;
      closed = true;
      if (session === current) session = null;
      markDown(reason);
      logger.warn({ reason, host: endpoint.host }, 'SMPP link down');
      scheduleReconnect();
    };
    current.on('error', (error: Error) => onDown(error.message));
    current.on('close', () => onDown('connection closed'));
    current.on('connect', () => {
      current.bind_transceiver(
        { system_id: endpoint.systemId, password: endpoint.password, interface_version: 0x34 },
        (pdu) => {
          if (pdu.command_status !== smpp.ESME_ROK) {
            lastError = `bind refused (command_status 0x${pdu.command_status.toString(16)})`;
            current.destroy();
            return;
          }
          bound = true;
          failures = 0;
          downSince = null;
          lastError = null;
          logger.info({ host: endpoint.host }, 'SMPP bound as transceiver');
          for (const waiter of bindWaiters) waiter.resolve();
          bindWaiters.clear();
        },
      );
    });
    current.on('deliver_sm', (pdu: PDU) => void answerDeliver(current, pdu));
    current.on('enquire_link', (pdu: PDU) => current.send(pdu.response()));
    current.on('unbind', (pdu: PDU) => {
      current.send(pdu.response());
      current.close();
    });
  }

  function waitForBind(): Promise<void> {
    if (bound && session) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject,
      };
      const timer = setTimeout(() => {
        bindWaiters.delete(waiter);
        reject(new Error(`SMPP not bound: ${lastError ?? 'the SMSC is not reachable'}`));
      }, bindWaitMs);
      bindWaiters.add(waiter);
    });
  }

  async function acquireWindow(): Promise<void> {
    if (inFlight < windowSize) {
      inFlight += 1;
      return;
    }
    await new Promise<void>((resolve) => windowWaiters.push(resolve));
  }

  function releaseWindow() {
    const next = windowWaiters.shift();
    if (next) next();
    else inFlight -= 1;
  }

  function submitOnce(message: SmsSubmit): Promise<string> {
    const current = session;
    if (!current || !bound) return Promise.reject(new Error('SMPP not bound'));
    const unicode = !isGsm7(message.text);
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outstanding.delete(fail);
        reject(error);
      };
      const timer = setTimeout(() => {
        fail(new Error('SMPP submit_sm got no response in time'));
      }, responseTimeoutMs);
      outstanding.add(fail);
      const sent = current.submit_sm(
        {
          source_addr_ton: /^\d+$/.test(options.senderId) ? 1 : 5,
          source_addr_npi: /^\d+$/.test(options.senderId) ? 1 : 0,
          source_addr: options.senderId,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: toAddress(message.to),
          registered_delivery: 1,
          data_coding: unicode ? DATA_CODING_UCS2 : DATA_CODING_GSM,
          short_message: message.text,
          ...(options.entityId ? { dlt_entity_id: options.entityId } : {}),
          ...(message.templateId ? { dlt_template_id: message.templateId } : {}),
        },
        (pdu) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          outstanding.delete(fail);
          if (pdu.command_status === smpp.ESME_ROK) resolve(String(pdu.message_id ?? ''));
          else if (
            pdu.command_status === smpp.ESME_RTHROTTLED ||
            pdu.command_status === smpp.ESME_RMSGQFUL ||
            pdu.command_status === smpp.ESME_RSYSERR
          ) {
            reject(new Error(`SMSC busy (command_status 0x${pdu.command_status.toString(16)})`));
          } else reject(new SmsRejectedError(pdu.command_status));
        },
      );
      if (!sent) fail(new Error('SMPP link not writable'));
    });
  }

  return {
    /** Opens the link (and keeps it open); idempotent. */
    start() {
      if (wanted) return;
      wanted = true;
      downSince = new Date();
      connect();
    },

    /**
     * Submits one message; resolves with the SMSC's message_id once it acknowledged it. Rejects
     * (and the outbox retries) when the link is down, drops, or the SMSC is busy; rejects with
     * SmsRejectedError when the SMSC refused this message for good.
     */
    async send(message: SmsSubmit): Promise<string> {
      if (!wanted) throw new Error('SMPP client not started');
      await waitForBind();
      await acquireWindow();
      try {
        return await submitOnce(message);
      } finally {
        releaseWindow();
      }
    },

    health(): SmppHealth {
      return { bound, downSince, lastError, inFlight };
    },

    async stop(): Promise<void> {
      wanted = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      for (const waiter of bindWaiters) waiter.reject(new Error('SMPP client stopped'));
      bindWaiters.clear();
      const current = session;
      session = null;
      markDown('stopped');
      if (!current) return;
      if (current.socket.destroyed) return;
      await new Promise<void>((resolve) => {
        current.socket.once('close', () => resolve());
        // A polite unbind; a peer that does not answer in a second is cut off.
        const timer = setTimeout(() => current.destroy(), 1_000);
        timer.unref();
        current.unbind(() => {
          clearTimeout(timer);
          current.destroy();
        });
      });
    },
  };
}

export type SmppClient = ReturnType<typeof createSmppClient>;
