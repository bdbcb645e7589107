/** Filters of the console's lists, as the screens keep them (in the address). */
export interface BloodRequestFilters {
  status?: string | undefined;
  urgency?: string | undefined;
  bloodType?: string | undefined;
  city?: string | undefined;
  page: number;
}

export interface DonorFilters {
  status?: string | undefined;
  bloodType?: string | undefined;
  q?: string | undefined;
  page: number;
}
