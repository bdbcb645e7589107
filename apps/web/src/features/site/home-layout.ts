/**
 * The boxes of the home page's live parts (figures, featured articles): fixed heights with
 * clamped text, so a longer title or another language does not change them. While the parts'
 * code loads, the home page holds their place with one block of their summed height
 * (`LIVE_PLACEHOLDER` in ./home-placeholder.ts); while their data loads, they draw skeletons of
 * the same boxes. Nothing below them moves when they appear.
 *
 * Heights (px), phone / ≥ 640 / ≥ 768 / ≥ 1024:
 *   figures  = section padding 64 / 80, heading 32 / 36, 16, grid 2 × 112 + 12 = 236 (1 row at
 *              ≥ 1024: 112)                                         → 348 / 368 / 368 / 244
 *   featured = padding, heading, 16, cards 3 × 240 + 2 × 16 = 752 (1 row at ≥ 768: 240),
 *              foot 16 + 44                                         → 924 / 944 / 432 / 432
 * Change both files together.
 */
export const LIVE_SECTION = 'container-page py-8 sm:py-10';
/** One line of an h2 in `text-2xl sm:text-3xl` (its line height). */
export const LIVE_HEADING = 'h-8 text-2xl font-bold text-slate-900 sm:h-9 sm:text-3xl';

export const FIGURES_GRID = 'mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4';
export const FIGURE_BOX = 'h-28 rounded-xl border border-slate-200 bg-white p-4';

export const FEATURED_GRID = 'mt-4 grid gap-4 md:grid-cols-3';
export const FEATURED_BOX = 'h-60 rounded-xl border border-slate-200 bg-white p-5';
/** The "All articles" link under the cards. */
export const FEATURED_FOOT = 'mt-4 flex h-11 items-center';

export const SKELETON_BAR = 'animate-pulse rounded bg-slate-200 motion-reduce:animate-none';
