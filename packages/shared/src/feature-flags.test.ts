import { describe, expect, it } from 'vitest';
import {
  FEATURE_FLAG_DEFAULTS,
  isFeatureVisible,
  parseFeatureFlagOverrides,
  updateFeatureFlagsSchema,
  type FeatureFlags,
} from './feature-flags';

describe('FEATURE_FLAG_DEFAULTS', () => {
  it('enables exactly the five flags the product spec lists as enabled', () => {
    const enabled = Object.entries(FEATURE_FLAG_DEFAULTS)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .sort();
    expect(enabled).toEqual(
      [
        'donorRegistration',
        'homePageRedesign',
        'locationDetection',
        'privacyProtection',
        'pwaSupport',
      ].sort(),
    );
  });

  it('has the 25 flags of the spec table', () => {
    expect(Object.keys(FEATURE_FLAG_DEFAULTS)).toHaveLength(25);
    expect(FEATURE_FLAG_DEFAULTS.emergencyServices).toBe(false);
    expect(FEATURE_FLAG_DEFAULTS.bloodBankDirectory).toBe(false);
  });
});

describe('parseFeatureFlagOverrides', () => {
  it('turns bare names on and dashed names off', () => {
    expect(parseFeatureFlagOverrides('bloodRequests, emergencyServices,-pwaSupport')).toEqual({
      ok: true,
      overrides: { bloodRequests: true, emergencyServices: true, pwaSupport: false },
    });
  });

  it('accepts an empty or missing value', () => {
    expect(parseFeatureFlagOverrides(undefined)).toEqual({ ok: true, overrides: {} });
    expect(parseFeatureFlagOverrides(' , ')).toEqual({ ok: true, overrides: {} });
  });

  it('reports every unknown name instead of ignoring it', () => {
    expect(parseFeatureFlagOverrides('bloodRequest,-pwa,adminPanel')).toEqual({
      ok: false,
      unknown: ['bloodRequest', 'pwa'],
    });
  });

  it('does not treat inherited object keys as flags', () => {
    expect(parseFeatureFlagOverrides('toString')).toEqual({ ok: false, unknown: ['toString'] });
  });
});

describe('isFeatureVisible', () => {
  const flags: FeatureFlags = {
    ...FEATURE_FLAG_DEFAULTS,
    adminPanel: true,
    hospitalDashboard: true,
  };

  it('shows adminPanel only to an admin and hospitalDashboard only to a hospital', () => {
    expect(isFeatureVisible('adminPanel', 'admin', flags)).toBe(true);
    expect(isFeatureVisible('adminPanel', 'donor', flags)).toBe(false);
    expect(isFeatureVisible('hospitalDashboard', 'hospital', flags)).toBe(true);
    expect(isFeatureVisible('hospitalDashboard', 'admin', flags)).toBe(false);
  });

  it('hides everything whose flag is off, whatever the role', () => {
    expect(isFeatureVisible('adminPanel', 'admin', FEATURE_FLAG_DEFAULTS)).toBe(false);
    expect(isFeatureVisible('pwaSupport', null, FEATURE_FLAG_DEFAULTS)).toBe(true);
  });
});

describe('updateFeatureFlagsSchema', () => {
  it('accepts a subset of known flags and rejects unknown ones', () => {
    expect(updateFeatureFlagsSchema.safeParse({ bloodRequests: true }).success).toBe(true);
    expect(updateFeatureFlagsSchema.safeParse({ nope: true }).success).toBe(false);
    expect(updateFeatureFlagsSchema.safeParse({ bloodRequests: 'yes' }).success).toBe(false);
  });
});
