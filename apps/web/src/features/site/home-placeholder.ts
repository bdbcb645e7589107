/**
 * The place of the home page's live parts while their code loads: their summed height at each
 * width (see ./home-layout.ts, which they are drawn with), so nothing below moves when they
 * appear. Its own module: it is part of the first page load, the layout is not.
 *   phone 348 + 924, ≥ 640 368 + 944, ≥ 768 368 + 432, ≥ 1024 244 + 432
 */
export const LIVE_PLACEHOLDER = 'h-[1272px] sm:h-[1312px] md:h-[800px] lg:h-[676px]';
