import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import type { PDU, Session } from 'smpp';
// Registers the DLT tags (0x1400, 0x1401) so the server decodes them by name.
import '../features/notifications/channels/smpp-client';

export interface ReceivedSms {
  messageId: string;
  sourceAddr: string;
  destinationAddr: string;
  dataCoding: number;
  text: string;
  entityId: string | null;
  templateId: string | null;
  registeredDelivery: number;
  at: number;
}

export interface TestSmppServerOptions {
  systemId?: string;
  password?: string;
  /** Answer each submit_sm after this long (a slow SMSC), ms. */
  responseDelayMs?: number;
  /** A fixed port (the browser tests' harness); default: any free one. */
  port?: number;
}

/**
 * A real SMPP v3.4 peer (node-smpp's server) for tests: checks the bind's credentials, answers
 * submit_sm with a message_id and keeps what it acknowledged, sends delivery receipts and
 * mobile-originated replies as deliver_sm, and can drop the link in the middle of a batch.
 */
export async function startTestSmppServer(options: TestSmppServerOptions = {}) {
  const systemId = options.systemId ?? 'bdms';
  const password = options.password ?? 'secret';
  const received: ReceivedSms[] = [];
  /** Every submit_sm that arrived, acknowledged or not. */
  const arrivals: string[] = [];
  const sessions = new Set<Session>();
  let bound: Session | null = null;
  let binds = 0;
  let nextId = 1;
  let dropAfter: number | null = null;
  let refuseBinds = false;
  let pending = 0;
  let maxPending = 0;

  const server = smpp.createServer((session) => {
    sessions.add(session);
    session.on('close', () => {
      sessions.delete(session);
      if (bound === session) bound = null;
    });
    session.on('error', () => {});
    session.on('bind_transceiver', (pdu: PDU) => {
      if (refuseBinds || pdu.system_id !== systemId || pdu.password !== password) {
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      binds += 1;
      bound = session;
      session.send(pdu.response({ system_id: 'TESTSMSC' }));
    });
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: PDU) => {
      const short = pdu.short_message as { message?: string } | undefined;
      arrivals.push(String(pdu.destination_addr));
      if (dropAfter !== null && arrivals.length >= dropAfter) {
        // The link dies with this submit unanswered.
        dropAfter = null;
        session.destroy();
        return;
      }
      pending += 1;
      maxPending = Math.max(maxPending, pending);
      const messageId = `M${String(nextId++).padStart(6, '0')}`;
      const answer = () => {
        pending -= 1;
        if (session.socket.destroyed) return;
        received.push({
          messageId,
          sourceAddr: String(pdu.source_addr),
          destinationAddr: String(pdu.destination_addr),
          dataCoding: Number(pdu.data_coding),
          text: short?.message ?? '',
          entityId: typeof pdu.dlt_entity_id === 'string' ? pdu.dlt_entity_id : null,
          templateId: typeof pdu.dlt_template_id === 'string' ? pdu.dlt_template_id : null,
          registeredDelivery: Number(pdu.registered_delivery),
          at: Date.now(),
        });
        session.send(pdu.response({ message_id: messageId }));
      };
      if (options.responseDelayMs) setTimeout(answer, options.responseDelayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve()),
  );
  const port = (server.address() as AddressInfo).port;

  function sendDeliver(fields: Record<string, unknown>): Promise<number> {
    const session = bound;
    if (!session) return Promise.reject(new Error('no ESME is bound'));
    return new Promise((resolve) => {
      session.deliver_sm(fields, (pdu) => resolve(pdu.command_status));
    });
  }

  return {
    port,
    url: `smpp://${systemId}:${password}@127.0.0.1:${port}`,
    received,
    arrivals,
    get binds() {
      return binds;
    },
    /** The most submit_sm ever waiting for their response at once. */
    get maxPending() {
      return maxPending;
    },
    get isBound() {
      return bound !== null;
    },
    /** The next submit_sm (counting all so far) that reaches `n` kills the link unanswered. */
    dropAfter(n: number) {
      dropAfter = n;
    },
    refuseBinds(value: boolean) {
      refuseBinds = value;
    },
    /** Drops every link at once (the SMSC restarting). */
    dropAll() {
      for (const session of sessions) session.destroy();
    },
    /** A delivery receipt (esm_class 0x04) for `messageId`; resolves with the ESME's status. */
    receipt(messageId: string, status = 'DELIVRD', error = '000'): Promise<number> {
      return sendDeliver({
        source_addr: '919000000000',
        destination_addr: 'BDMSIN',
        esm_class: 0x04,
        short_message: `id:${messageId} sub:001 dlvrd:001 submit date:2611251200 done date:2611251201 stat:${status} err:${error} text:`,
        receipted_message_id: messageId,
      });
    },
    /** A reply typed by the person at `from` (91XXXXXXXXXX); resolves with the ESME's status. */
    inbound(from: string, text: string): Promise<number> {
      return sendDeliver({
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: from,
        destination_addr: 'BDMSIN',
        esm_class: 0,
        data_coding: /^[\x20-\x7e]*$/.test(text) ? 0 : 8,
        short_message: text,
      });
    },
    async close(): Promise<void> {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestSmppServer = Awaited<ReturnType<typeof startTestSmppServer>>;
