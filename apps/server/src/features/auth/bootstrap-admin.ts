import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import { createActivityLog } from '../../lib/activity-log';
import { hashPassword } from '../../lib/password';
import { createAuthRepository } from './auth.repository';

export type BootstrapResult = 'disabled' | 'exists' | 'created' | 'email-taken';

type Logger = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD create the first administrator, once: as soon as any active
 * administrator exists the variables are ignored, so rotating the password in the
 * environment never silently resets an account.
 */
export async function bootstrapAdmin(
  db: Db,
  admin: Config['admin'],
  logger?: Logger,
): Promise<BootstrapResult> {
  if (!admin) return 'disabled';
  if (await createAuthRepository(db).hasActiveAdmin()) return 'exists';
  const passwordHash = await hashPassword(admin.password);
  const result = await db.transaction(async (tx): Promise<BootstrapResult> => {
    const repository = createAuthRepository(tx);
    await repository.lockForStartup('bdms.bootstrap-admin');
    if (await repository.hasActiveAdmin()) return 'exists';
    const user = await repository.insertIfEmailFree({
      email: admin.email,
      passwordHash,
      role: 'admin',
      status: 'approved',
      fullName: 'Administrator',
    });
    if (!user) return 'email-taken';
    await createActivityLog(tx).record({
      action: 'admin.bootstrap',
      actorRole: 'system',
      targetType: 'user',
      targetId: user.id,
      details: { source: 'ADMIN_EMAIL' },
    });
    return 'created';
  });
  if (result === 'created') logger?.info(`Created administrator ${admin.email}`);
  if (result === 'email-taken') {
    logger?.warn(
      'ADMIN_EMAIL belongs to an existing non-administrator account; no administrator was created',
    );
  }
  return result;
}
