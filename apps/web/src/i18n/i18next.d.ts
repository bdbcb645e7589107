import 'i18next';
import type { AppResources, DEFAULT_NAMESPACE } from './resources';

// Typed keys: a key missing from the English files is a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof DEFAULT_NAMESPACE;
    resources: AppResources;
  }
}
