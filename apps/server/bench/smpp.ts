// SMPP adapter benchmark (not a test): `npx tsx apps/server/bench/smpp.ts` from the repository root.
// Submits BENCH_SMS messages (default 5000) through the SMPP client to the test SMSC (node-smpp's
// server on loopback, acknowledging at once) with windows of 1, 10 and 50 outstanding submit_sm,
// and prints messages per second. A real aggregator's latency and throttling (typically 100–300
// messages/s per bind) bound production; this is the adapter's own ceiling on this machine.
import { createSmppClient } from '../src/features/notifications/channels/smpp-client';
import { startTestSmppServer } from '../src/test/smpp-server';

const COUNT = Number(process.env.BENCH_SMS ?? 5000);

async function measure(windowSize: number, text: string) {
  const server = await startTestSmppServer();
  const client = createSmppClient({
    url: server.url,
    senderId: 'BDMSIN',
    entityId: '1101234567890',
    windowSize,
  });
  client.start();
  await client.send({ to: '+919800000000', text: 'warm-up' });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: COUNT }, (_, i) =>
      client.send({
        to: `+9198${String(i).padStart(8, '0')}`,
        text,
        templateId: '1107000000000000001',
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await client.stop();
  await server.close();
  return Math.round(COUNT / seconds);
}

const ENGLISH =
  'Critical: O- blood, 2 unit(s) at Gandhi Hospital, Secunderabad, 4 km from you. Reply YES to donate or open https://rakt.example.in/r/Ab3dEf7h';
const HINDI = 'गंभीर: O- रक्त, 4 km. YES भेजें https://rakt.example.in/r/Ab3dEf7h';
for (const windowSize of [1, 10, 50]) {
  const en = await measure(windowSize, ENGLISH);
  const hi = await measure(windowSize, HINDI);
  console.log(
    `window ${String(windowSize).padStart(2)}: ${en} SMS/s (English, GSM-7), ${hi} SMS/s (Hindi, UCS-2)`,
  );
}
