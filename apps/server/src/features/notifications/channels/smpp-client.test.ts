import { afterEach, describe, expect, it } from 'vitest';
import { startTestSmppServer, type TestSmppServer } from '../../../test/smpp-server';
import {
  createSmppClient,
  parseSmppUrl,
  smsLength,
  type SmppClient,
  type SmsInbound,
  type SmsReceipt,
} from './smpp-client';

let server: TestSmppServer | null = null;
let client: SmppClient | null = null;

afterEach(async () => {
  await client?.stop();
  await server?.close();
  client = null;
  server = null;
});

describe('parseSmppUrl', () => {
  it('reads the system id, password, host and port, and refuses other schemes', () => {
    expect(parseSmppUrl('smpp://bdms%40in:p%3Ass@smsc.example.in:2776')).toEqual({
      host: 'smsc.example.in',
      port: 2776,
      systemId: 'bdms@in',
      password: 'p:ss',
    });
    expect(parseSmppUrl('smpp://id:pw@10.0.0.5').port).toBe(2775);
    expect(() => parseSmppUrl('http://id:pw@host')).toThrow(/smpp:\/\//);
    expect(() => parseSmppUrl('smpp://host:2775')).toThrow(/system_id/);
  });
});

describe('smsLength', () => {
  it('counts GSM-7 septets against 160 and UCS-2 units against 70', () => {
    expect(smsLength('Hello €')).toEqual({ encoding: 'gsm7', used: 8, limit: 160 });
    expect(smsLength('नमस्ते')).toEqual({ encoding: 'ucs2', used: 6, limit: 70 });
  });
});

describe('SMPP client against an SMPP server', () => {
  it('binds as a transceiver and submits with sender id, DLT TLVs and the right data_coding', async () => {
    server = await startTestSmppServer();
    client = createSmppClient({ url: server.url, senderId: 'BDMSIN', entityId: '1101234567890' });
    client.start();
    const english = await client.send({
      to: '+919876543210',
      text: 'O+ blood needed',
      templateId: '1107000000000000001',
    });
    const hindi = await client.send({ to: '+919876543211', text: 'O+ रक्त चाहिए' });
    expect(english).toBe(server.received[0]?.messageId);
    expect(hindi).toBe(server.received[1]?.messageId);
    expect(server.received[0]).toMatchObject({
      sourceAddr: 'BDMSIN',
      destinationAddr: '919876543210',
      dataCoding: 0,
      text: 'O+ blood needed',
      entityId: '1101234567890',
      templateId: '1107000000000000001',
      registeredDelivery: 1,
    });
    expect(server.received[1]).toMatchObject({
      dataCoding: 8,
      text: 'O+ रक्त चाहिए',
      templateId: null,
    });
    expect(client.health()).toMatchObject({ bound: true, downSince: null, lastError: null });
  });

  it('hands delivery receipts and replies to its handlers and acknowledges them', async () => {
    server = await startTestSmppServer();
    const receipts: SmsReceipt[] = [];
    const replies: SmsInbound[] = [];
    client = createSmppClient({
      url: server.url,
      senderId: 'BDMSIN',
      entityId: null,
      onReceipt: async (receipt) => void receipts.push(receipt),
      onInbound: async (message) => {
        if (message.text === 'boom') throw new Error('database down');
        replies.push(message);
      },
    });
    client.start();
    const id = await client.send({ to: '+919876543210', text: 'hello' });
    expect(await server.receipt(id, 'DELIVRD')).toBe(0);
    expect(await server.inbound('919876543210', 'YES')).toBe(0);
    expect(await server.inbound('919876543210', 'हाँ')).toBe(0);
    // A reply the server could not process is refused, so the SMSC delivers it again.
    expect(await server.inbound('919876543210', 'boom')).toBe(0x64);
    expect(receipts).toEqual([{ messageId: id, status: 'DELIVRD', error: '000' }]);
    expect(replies).toEqual([
      { from: '+919876543210', text: 'YES' },
      { from: '+919876543210', text: 'हाँ' },
    ]);
  });

  it('fails a submit whose response never came when the link drops, then reconnects', async () => {
    server = await startTestSmppServer();
    client = createSmppClient({
      url: server.url,
      senderId: 'BDMSIN',
      entityId: null,
      reconnectBaseMs: 20,
    });
    client.start();
    await client.send({ to: '+919876543210', text: 'one' });
    server.dropAfter(2);
    await expect(client.send({ to: '+919876543211', text: 'two' })).rejects.toThrow(/link lost/);
    expect(client.health().bound).toBe(false);
    await client.send({ to: '+919876543211', text: 'two again' });
    expect(server.binds).toBe(2);
    expect(server.received.map((sms) => sms.text)).toEqual(['one', 'two again']);
  });

  it('keeps at most windowSize submits outstanding', async () => {
    server = await startTestSmppServer({ responseDelayMs: 150 });
    client = createSmppClient({
      url: server.url,
      senderId: 'BDMSIN',
      entityId: null,
      windowSize: 3,
    });
    client.start();
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client!.send({ to: `+9198765432${String(i).padStart(2, '0')}`, text: `m${i}` }),
      ),
    );
    expect(new Set(ids).size).toBe(10);
    expect(server.maxPending).toBe(3);
    expect(client.health().inFlight).toBe(0);
    expect(server.received).toHaveLength(10);
  });

  it('tells the caller the SMSC is unreachable instead of waiting forever', async () => {
    server = await startTestSmppServer();
    server.refuseBinds(true);
    client = createSmppClient({
      url: server.url,
      senderId: 'BDMSIN',
      entityId: null,
      bindWaitMs: 200,
      reconnectBaseMs: 50,
    });
    client.start();
    await expect(client.send({ to: '+919876543210', text: 'x' })).rejects.toThrow(/not bound/);
    expect(client.health().downSince).toBeInstanceOf(Date);
    expect(server.received).toHaveLength(0);
  });
});
