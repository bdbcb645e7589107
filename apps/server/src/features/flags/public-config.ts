import { APP_NAME, type PublicConfig } from '@bdms/shared';
import type { Config } from '../../config/env';
import { toCachedReply, type CachedReply } from '../../lib/reply-cache';
import type { FlagsService } from './flags.service';

export interface PublicConfigOptions {
  config: Pick<Config, 'supportEmail' | 'vapid'>;
  flags: FlagsService;
  version: string;
  /** Whether demo records are present (the mockData flag); default: never. */
  isDemoDataPresent?: () => Promise<boolean>;
}

/** What `GET /api/v1/config` answers, with its ETag; the prerendered pages carry the same. */
export type PublicConfigSource = () => Promise<CachedReply<PublicConfig>>;

/**
 * The reply is computed again only when the effective flags change (a new object from the flags
 * service: after a change, or its periodic re-read) or demo data comes or goes, so asking costs
 * a lookup.
 */
export function createPublicConfigSource({
  config,
  flags,
  version,
  isDemoDataPresent = async () => false,
}: PublicConfigOptions): PublicConfigSource {
  let current: {
    flags: PublicConfig['flags'];
    demoData: boolean;
    entry: CachedReply<PublicConfig>;
  } | null = null;
  return async () => {
    const effective = await flags.getFlags();
    const demoData = await isDemoDataPresent();
    if (current?.flags !== effective || current.demoData !== demoData) {
      current = {
        flags: effective,
        demoData,
        entry: toCachedReply<PublicConfig>({
          appName: APP_NAME,
          version,
          flags: effective,
          supportEmail: config.supportEmail,
          vapidPublicKey: config.vapid.publicKey,
          demoData,
        }),
      };
    }
    return current.entry;
  };
}
