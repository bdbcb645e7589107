import { describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS } from '@bdms/shared';
import { normalizeConfig } from './use-config';

describe('normalizeConfig', () => {
  it('reads the server config', () => {
    const config = normalizeConfig({
      appName: 'Blood Donation Management System',
      version: '1.2.3',
      flags: { ...FEATURE_FLAG_DEFAULTS, emergencyServices: true },
      supportEmail: 'help@bdms.example',
      vapidPublicKey: 'key',
    });
    expect(config.flags.emergencyServices).toBe(true);
    expect(config.supportEmail).toBe('help@bdms.example');
    expect(config.version).toBe('1.2.3');
  });

  it('keeps the default of every flag the server leaves out or sends malformed', () => {
    const config = normalizeConfig({ flags: { bloodBankDirectory: true, pwaSupport: 'yes' } });
    expect(config.flags).toEqual({ ...FEATURE_FLAG_DEFAULTS, bloodBankDirectory: true });
    expect(config.vapidPublicKey).toBeNull();
  });

  it('says demo data is present only when the server says true', () => {
    expect(normalizeConfig({ demoData: true }).demoData).toBe(true);
    expect(normalizeConfig({ demoData: 'true' }).demoData).toBe(false);
    expect(normalizeConfig({}).demoData).toBe(false);
  });

  it('survives a reply that is not an object', () => {
    expect(normalizeConfig(null).flags).toEqual(FEATURE_FLAG_DEFAULTS);
  });
});
