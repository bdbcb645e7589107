export { FacilityDirectory } from './components/facility-directory';
export { FacilityDetails } from './components/facility-details';
