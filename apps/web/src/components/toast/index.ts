export { ToastProvider } from './toast-provider';
export {
  useToast,
  type Toast,
  type ToastAction,
  type ToastApi,
  type ToastOptions,
  type ToastType,
} from './toast-context';
