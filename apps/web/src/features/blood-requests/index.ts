export { RequestForm } from './components/request-form';
export { TrackingView, STATUS_BADGE } from './components/tracking-view';
