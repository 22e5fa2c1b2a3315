import { exportFormatSchema, timeZoneSchema } from './reports.ts';

export { EXPORT_FORMATS, type ExportFormat } from './reports.ts';

/** What an export adds to its list's filters: the format, and the zone its times are written in (default UTC). */
export const exportFields = {
  format: exportFormatSchema,
  tz: timeZoneSchema.optional(),
};
