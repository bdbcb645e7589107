export * from './api';
export * from './constants';
export * from './feature-flags';
export * from './auth';
export * from './auth-replies';
export * from './dates';
export * from './phone';
export * from './users';
