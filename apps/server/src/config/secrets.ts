import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Secrets the operator did not supply are generated on the first start and kept in
 * `DATA_DIR/secrets.json`, so tokens stay valid and push subscriptions keep working across
 * restarts. The file is created with mode 0600 and replaced atomically.
 */
export const SECRETS_FILE_NAME = 'secrets.json';

const secretsFileSchema = z
  .object({
    jwtSecret: z.string().min(32).optional(),
    vapidPublicKey: z.string().optional(),
    vapidPrivateKey: z.string().optional(),
  })
  .loose();
type SecretsFile = z.infer<typeof secretsFileSchema>;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The format web-push expects: base64url of the uncompressed P-256 point and of the 32-byte scalar. */
export function generateVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pub = publicKey.export({ format: 'jwk' });
  const priv = privateKey.export({ format: 'jwk' });
  if (!pub.x || !pub.y || !priv.d) throw new Error('Node returned an incomplete P-256 JWK');
  const point = Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(pub.x, 'base64url'),
    Buffer.from(pub.y, 'base64url'),
  ]);
  return {
    publicKey: point.toString('base64url'),
    privateKey: Buffer.from(priv.d, 'base64url').toString('base64url'),
  };
}

export function isVapidPublicKey(value: string): boolean {
  const bytes = Buffer.from(value, 'base64url');
  return /^[A-Za-z0-9_-]+$/.test(value) && bytes.length === 65 && bytes[0] === 0x04;
}

export function isVapidPrivateKey(value: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, 'base64url').length === 32;
}

export function generateJwtSecret(): string {
  return crypto.randomBytes(48).toString('base64url');
}

function readSecretsFile(file: string): SecretsFile {
  if (!fs.existsSync(file)) return {};
  const parsed = secretsFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error('it does not hold the expected fields');
  const { vapidPublicKey, vapidPrivateKey } = parsed.data;
  if (
    (vapidPublicKey && !isVapidPublicKey(vapidPublicKey)) ||
    (vapidPrivateKey && !isVapidPrivateKey(vapidPrivateKey))
  ) {
    throw new Error('its VAPID keys are malformed');
  }
  return parsed.data;
}

function writeSecretsFile(file: string, secrets: SecretsFile): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export interface StoredSecrets {
  jwtSecret?: string;
  vapid?: VapidKeys;
}

/**
 * Returns the stored secrets for whatever is `needed`, generating and saving missing ones.
 * Throws with a short reason when DATA_DIR or the file cannot be used.
 */
export function loadOrCreateSecrets(
  dataDir: string,
  needed: { jwtSecret: boolean; vapid: boolean },
): StoredSecrets {
  if (!needed.jwtSecret && !needed.vapid) return {};
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SECRETS_FILE_NAME);
  let stored: SecretsFile;
  try {
    stored = readSecretsFile(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${file} cannot be used (${reason}); fix it or move it away to generate new secrets`,
    );
  }
  const next: SecretsFile = { ...stored };
  if (needed.jwtSecret && !next.jwtSecret) next.jwtSecret = generateJwtSecret();
  if (needed.vapid && !(next.vapidPublicKey && next.vapidPrivateKey)) {
    const keys = generateVapidKeys();
    next.vapidPublicKey = keys.publicKey;
    next.vapidPrivateKey = keys.privateKey;
  }
  if (JSON.stringify(next) !== JSON.stringify(stored)) writeSecretsFile(file, next);
  return {
    jwtSecret: next.jwtSecret,
    vapid:
      next.vapidPublicKey && next.vapidPrivateKey
        ? { publicKey: next.vapidPublicKey, privateKey: next.vapidPrivateKey }
        : undefined,
  };
}
