export * from './users';
export * from './feature-flags';
export * from './activity-log';
export * from './auth';
export * from './mail-outbox';
export * from './donors';
export * from './notifications';
