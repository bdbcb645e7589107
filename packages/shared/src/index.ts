export * from './api';
export * from './constants';
export * from './feature-flags';
