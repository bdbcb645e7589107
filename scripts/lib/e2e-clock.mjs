// A movable clock for the browser tests' server (never used by `npm start`): with E2E_CLOCK_PORT
// set, scripts/e2e-server.mjs installs it before the app loads, and a test moves the server's time
// with `POST /clock {"offsetMs": n}` on that port (GET /clock reads it, offsetMs 0 puts it back).
// Only the JavaScript clock moves (Date.now and new Date()); the database's now() and timers do not.
import http from 'node:http';

export function installMovableClock(port) {
  const RealDate = Date;
  let offsetMs = 0;
  const now = () => RealDate.now() + offsetMs;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, property, receiver) {
      return property === 'now' ? now : Reflect.get(target, property, receiver);
    },
  });

  const server = http.createServer((request, response) => {
    const answer = () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ offsetMs, now: new RealDate(now()).toISOString() }));
    };
    if (request.method !== 'POST') return answer();
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const value = Number(JSON.parse(body || '{}').offsetMs);
      if (!Number.isFinite(value)) {
        response.writeHead(400).end();
        return;
      }
      offsetMs = value;
      answer();
    });
  });
  server.listen(port, '127.0.0.1');
  server.unref();
}
