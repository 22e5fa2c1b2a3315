import { z } from 'zod';
import { timeZoneSchema } from './reports.ts';

/** The formats every list exports to (docs/product/reports.md#exports). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What an export adds to its list's filters: the format, and the zone its times are written in (default UTC). */
export const exportFields = {
  format: z.enum(EXPORT_FORMATS, { error: 'format must be csv or xlsx' }),
  tz: timeZoneSchema.optional(),
};
