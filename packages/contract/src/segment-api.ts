import { z } from 'zod';
import { segmentFilters } from './resources/marketing-segments.js';

/** The most clean leads a preview shows. */
export const SEGMENT_SAMPLE_SIZE = 10;

/** POST /marketing-segments/preview: a segment's filters as they are being edited (decision 0039). */
export const segmentPreviewInput = z.object({ filters: segmentFilters.default({}) }).strict();
export type SegmentPreviewInput = z.infer<typeof segmentPreviewInput>;

/** How many clean leads the filters pick, and the most recently updated few of them. */
export const segmentPreviewOut = z.object({
  count: z.number().int(),
  sample: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      telefono: z.string().optional(),
      email: z.string().optional(),
      status: z.string(),
      agenteId: z.string().optional(),
      updatedAt: z.string(),
    }),
  ),
});
export type SegmentPreviewOut = z.infer<typeof segmentPreviewOut>;
