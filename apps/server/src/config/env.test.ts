import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_SUPPORT_EMAIL, loadConfig } from './env';
import { generateVapidKeys, SECRETS_FILE_NAME } from './secrets';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdms-config-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

/** Proves the two halves belong together, in the encoding web-push expects. */
function isMatchingVapidPair(publicKey: string, privateKey: string): boolean {
  const point = Buffer.from(publicKey, 'base64url');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const signer = crypto.createPrivateKey({ key: { ...jwk, d: privateKey }, format: 'jwk' });
  const verifier = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  const signature = crypto.sign('sha256', Buffer.from('push'), signer);
  return crypto.verify('sha256', Buffer.from('push'), verifier, signature);
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      dataDir,
      publicUrl: 'http://localhost:3000',
      admin: null,
      smtpUrl: null,
      mailFrom: 'no-reply@localhost',
      featureFlagOverrides: {},
      logLevel: 'info',
      supportEmail: DEFAULT_SUPPORT_EMAIL,
      trustProxy: false,
      demoDataForce: false,
    });
    const repoRoot = path.resolve(import.meta.dirname, '../../../..');
    expect(config.webDistDir).toBe(path.join(repoRoot, 'apps', 'web', 'dist'));
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.vapid)).toBe(true);
  });

  it('resolves DATA_DIR (default ./data) and WEB_DIST_DIR against the working directory', () => {
    const dataDir = tempDir();
    const relative = path.relative(process.cwd(), dataDir);
    const config = loadConfig({ DATA_DIR: relative, WEB_DIST_DIR: 'web-build' });
    expect(config.dataDir).toBe(dataDir);
    expect(config.webDistDir).toBe(path.resolve(process.cwd(), 'web-build'));
  });

  it('reads every variable', () => {
    const vapid = generateVapidKeys();
    const config = loadConfig({
      DATABASE_POOL_MAX: '25',
      REDIS_URL: 'redis://cache.internal:6379/2',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://app:secret@db.internal:5432/bdms',
      DATA_DIR: tempDir(),
      PUBLIC_URL: 'https://blood.example.in/',
      JWT_SECRET: 'a'.repeat(40),
      ADMIN_EMAIL: 'Admin@Example.org',
      ADMIN_PASSWORD: 'long enough',
      SMTP_URL: 'smtp://user:pass@mail.example.in:587',
      MAIL_FROM: 'Blood Donation <no-reply@blood.example.in>',
      FEATURE_FLAGS: 'bloodRequests, -pwaSupport',
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      LOG_LEVEL: 'debug',
      SUPPORT_EMAIL: 'help@blood.example.in',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://app:secret@db.internal:5432/bdms',
      publicUrl: 'https://blood.example.in',
      jwtSecret: 'a'.repeat(40),
      admin: { email: 'admin@example.org', password: 'long enough' },
      smtpUrl: 'smtp://user:pass@mail.example.in:587',
      mailFrom: 'Blood Donation <no-reply@blood.example.in>',
      featureFlagOverrides: { bloodRequests: true, pwaSupport: false },
      vapid,
      logLevel: 'debug',
      supportEmail: 'help@blood.example.in',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      databasePoolMax: 25,
      redisUrl: 'redis://cache.internal:6379/2',
    });
  });

  it('refuses PostgreSQL without JWT_SECRET and the VAPID keys, naming them, and writes nothing', () => {
    const dataDir = tempDir();
    const problems = problemsOf({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/bdms' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^JWT_SECRET: required when DATABASE_URL is set: every instance/);
    expect(problems[1]).toMatch(/^VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: required when DATABASE_URL/);
    expect(fs.existsSync(path.join(dataDir, SECRETS_FILE_NAME))).toBe(false);
    const vapid = generateVapidKeys();
    expect(
      problemsOf({
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://db/bdms',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
      }),
    ).toEqual([expect.stringMatching(/^JWT_SECRET: required/)]);
    // `npm run db:migrate` signs nothing: it may run without them, and generates none.
    const migrating = loadConfig(
      { DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/bdms' },
      { needsSecrets: false },
    );
    expect(migrating.databaseUrl).toBe('postgres://db/bdms');
    expect(fs.existsSync(path.join(dataDir, SECRETS_FILE_NAME))).toBe(false);
  });

  it('reads DATABASE_POOL_MAX (1 to 1000, default 10) and refuses a redis URL of another scheme', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).databasePoolMax).toBe(10);
    for (const bad of ['0', '1001', 'ten', '-3'])
      expect(problemsOf({ DATA_DIR: tempDir(), DATABASE_POOL_MAX: bad })[0]).toMatch(
        /^DATABASE_POOL_MAX: must be a whole number from 1 to 1000/,
      );
    expect(problemsOf({ DATA_DIR: tempDir(), REDIS_URL: 'http://cache' })[0]).toMatch(
      /^REDIS_URL: must be a redis/,
    );
  });

  it('reads CHECK_REPLIES (off unless 1)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).checkReplies).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), CHECK_REPLIES: '0' }).checkReplies).toBe(false);
    expect(loadConfig({ DATA_DIR: tempDir(), CHECK_REPLIES: '1' }).checkReplies).toBe(true);
    expect(problemsOf({ DATA_DIR: tempDir(), CHECK_REPLIES: 'yes' })[0]).toMatch(
      /^CHECK_REPLIES: must be 1/,
    );
  });

  it('reads TRUST_PROXY as false, a hop count, or addresses and CIDR ranges', () => {
    const trust = (value: string) =>
      loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust(' 2 ')).toBe(2);
    expect(trust('192.168.0.0/16,::1, fd00::/8,loopback')).toEqual([
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses TRUST_PROXY=true, saying why, and malformed addresses or ranges', () => {
    const [trueProblem] = problemsOf({ DATA_DIR: tempDir(), TRUST_PROXY: 'true' });
    expect(trueProblem).toMatch(/^TRUST_PROXY: true would trust every X-Forwarded-For hop/);
    expect(trueProblem).toContain('RATE_LIMIT_ALLOWLIST');
    for (const bad of ['10.0.0.0/33', '10.0.0', 'proxy.internal', '::1/129', '1.2.3.4/8/1', '99']) {
      const problems = problemsOf({ DATA_DIR: tempDir(), TRUST_PROXY: bad });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^TRUST_PROXY: /);
    }
  });

  it('reads the SMS and WhatsApp channels, and refuses malformed ones', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      SMS_SMPP_URL: 'smpp://bdms:secret@smsc.example.in:2775',
      SMS_SENDER_ID: 'BDMSIN',
      SMS_DLT_ENTITY_ID: '1101234567890123456',
      SMS_DLT_TEMPLATE_IDS: 'donor_alert=1107111111111111111,reply=1107222222222222222',
      WHATSAPP_TOKEN: 'token',
      WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      WHATSAPP_APP_SECRET: 'app-secret-1',
      WHATSAPP_VERIFY_TOKEN: 'verify-token-1',
    });
    expect(config.sms).toEqual({
      smppUrl: 'smpp://bdms:secret@smsc.example.in:2775',
      senderId: 'BDMSIN',
      entityId: '1101234567890123456',
      templateIds: { donor_alert: '1107111111111111111', reply: '1107222222222222222' },
      windowSize: 10,
    });
    expect(config.whatsapp).toMatchObject({
      apiUrl: 'https://graph.facebook.com',
      apiVersion: 'v21.0',
      alertTemplate: 'blood_request_alert',
      codeTemplate: 'phone_code',
    });
    expect(loadConfig({ DATA_DIR: tempDir() })).toMatchObject({ sms: null, whatsapp: null });
    const problems = problemsOf({
      DATA_DIR: tempDir(),
      SMS_SMPP_URL: 'http://smsc.example.in',
      SMS_DLT_TEMPLATE_IDS: 'donor_alert',
      SMS_SENDER_ID: 'TOO-LONG-HEADER',
      WHATSAPP_CODE_TEMPLATE: 'Phone Code',
    });
    expect(problems.join('\n')).toMatch(/SMS_SMPP_URL/);
    expect(problems.join('\n')).toMatch(/WHATSAPP_CODE_TEMPLATE/);
    expect(problems.join('\n')).toMatch(/SMS_DLT_TEMPLATE_IDS/);
    expect(problems.join('\n')).toMatch(/SMS_SENDER_ID/);
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PORT: '',
      DATABASE_URL: ' ',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.admin).toBeNull();
  });

  it('lists every bad variable at once, and writes nothing', () => {
    const dataDir = path.join(tempDir(), 'not-created');
    const problems = problemsOf({
      DATA_DIR: dataDir,
      PORT: 'eighty',
      DATABASE_URL: 'mysql://localhost/db',
      PUBLIC_URL: 'ftp://example.org',
      JWT_SECRET: 'short',
      ADMIN_EMAIL: 'not-an-address',
      SMTP_URL: 'http://mail',
      MAIL_FROM: 'nobody',
      FEATURE_FLAGS: 'bloodRequests,noSuchFlag',
      VAPID_PUBLIC_KEY: 'abc',
      LOG_LEVEL: 'loud',
      SUPPORT_EMAIL: 'help',
      TRUST_PROXY: 'maybe',
    });
    const names = [
      'PORT',
      'DATABASE_URL',
      'PUBLIC_URL',
      'JWT_SECRET',
      'ADMIN_EMAIL',
      'SMTP_URL',
      'MAIL_FROM',
      'FEATURE_FLAGS',
      'VAPID_PUBLIC_KEY',
      'LOG_LEVEL',
      'SUPPORT_EMAIL',
      'TRUST_PROXY',
    ];
    for (const name of names)
      expect(problems.some((problem) => problem.startsWith(name))).toBe(true);
    expect(problems).toContain('ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither');
    expect(problems).toContain('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('says all problems in one message', () => {
    try {
      loadConfig({ DATA_DIR: tempDir(), PORT: '70000', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /^Invalid configuration:\n {2}- PORT: .+\n {2}- LOG_LEVEL: .+$/,
      );
    }
  });

  it('rejects unknown FEATURE_FLAGS names', () => {
    const problems = problemsOf({ DATA_DIR: tempDir(), FEATURE_FLAGS: 'bloodRequests,-pwaSuport' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^FEATURE_FLAGS: unknown flag pwaSuport/);
  });

  it('needs both ADMIN_EMAIL and ADMIN_PASSWORD, with a password of 8 to 128 characters', () => {
    expect(problemsOf({ DATA_DIR: tempDir(), ADMIN_PASSWORD: 'long enough' })).toEqual([
      'ADMIN_EMAIL, ADMIN_PASSWORD: set both or neither',
    ]);
    expect(
      problemsOf({ DATA_DIR: tempDir(), ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' })[0],
    ).toMatch(/^ADMIN_PASSWORD/);
    expect(
      problemsOf({
        DATA_DIR: tempDir(),
        ADMIN_EMAIL: 'a@b.co',
        ADMIN_PASSWORD: 'x'.repeat(129),
      })[0],
    ).toMatch(/^ADMIN_PASSWORD/);
    expect(
      loadConfig({ DATA_DIR: tempDir(), ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'x'.repeat(128) })
        .admin,
    ).not.toBeNull();
  });
});

describe('generated secrets', () => {
  it('are generated once into DATA_DIR/secrets.json and reused', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.vapid).toEqual(first.vapid);
    const file = path.join(dataDir, SECRETS_FILE_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      jwtSecret: first.jwtSecret,
      vapidPublicKey: first.vapid.publicKey,
      vapidPrivateKey: first.vapid.privateKey,
    });
  });

  it('differ between data directories', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(
      loadConfig({ DATA_DIR: tempDir() }).jwtSecret,
    );
  });

  it('are a valid P-256 pair in the web-push format', () => {
    const { vapid } = loadConfig({ DATA_DIR: tempDir() });
    expect(Buffer.from(vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(vapid.publicKey, 'base64url')[0]).toBe(0x04);
    expect(Buffer.from(vapid.privateKey, 'base64url')).toHaveLength(32);
    expect(isMatchingVapidPair(vapid.publicKey, vapid.privateKey)).toBe(true);
  });

  it('are not generated for values the environment supplies', () => {
    const dataDir = tempDir();
    const vapid = generateVapidKeys();
    loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'b'.repeat(32),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    expect(fs.existsSync(path.join(dataDir, SECRETS_FILE_NAME))).toBe(false);
  });

  it('stop the start when secrets.json is corrupt, instead of replacing it', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, SECRETS_FILE_NAME), '{not json');
    const problems = problemsOf({ DATA_DIR: dataDir });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATA_DIR: .*secrets\.json cannot be used/);
    expect(fs.readFileSync(path.join(dataDir, SECRETS_FILE_NAME), 'utf8')).toBe('{not json');
  });
});
