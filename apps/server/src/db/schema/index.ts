export * from './users';
export * from './feature-flags';
export * from './activity-log';
