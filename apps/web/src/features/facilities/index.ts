export { FacilityDirectory } from './components/facility-directory';
export { FacilityDetails } from './components/facility-details';
export { StockFinder } from './components/stock-finder';
export { FacilityStockSection } from './components/stock-table';
export { FacilityPicker, type FacilityPickerProps } from './components/facility-picker';
