// The implementation is in lib/after-load.ts: the layout and the toasts use it too.
export { afterLoad } from '../../lib/after-load';
