/**
 * Compliance: the working-day calendar and the Art. 8 deadline, the house's
 * options and their authorization workflow, fairness monitoring (Art. 1.1) and
 * daily reports. Pure, except `readHolidayDirectory` (node:fs).
 */
export * from './bundled-holidays.js';
export * from './calendar.js';
export * from './csv.js';
export * from './daily-report.js';
export * from './daily-report-csv.js';
export type { BiggestWin, DailyReport, SpotFigures } from './daily-report-tally.js';
export * from './detection-power.js';
export * from './fairness-holds.js';
export * from './fairness-monitor.js';
export * from './fairness-monitor-data.js';
export * from './holiday-files.js';
export * from './holiday-list.js';
export * from './house-options.js';
export * from './house-options-commands.js';
export * from './house-options-state.js';
export * from './house-options-workflow.js';
export * from './iso-date.js';
export * from './people/index.js';
export * from './rejections.js';
export {
  ROLLS_MIN,
  EXPECTED_COUNT_MIN,
  type FairnessTest,
  type SpanTestResult,
} from './span-counts.js';
