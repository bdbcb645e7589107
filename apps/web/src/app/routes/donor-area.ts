/**
 * An approved donor's screens as one lazy module: once it has loaded, moving between
 * dashboard, history and certificates needs no download (slow networks), and the router
 * carries one import instead of five (the first page load's budget). The registration
 * (routes/onboarding.tsx), which only new donors need, stays apart.
 */
export { default as CertificatesPage } from './certificates';
export { default as DashboardPage } from './dashboard';
export { default as DonationHistoryPage } from './donation-history';
