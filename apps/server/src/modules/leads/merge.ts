import { LEAD_DETAILS_MAX, type leadDetail } from '@mostrador/contract';
import type { z } from 'zod';

/**
 * How a person's contacts merge (decision 0013), shared by inbound messages (webhooks) and the
 * CSV import: names are cleaned the same way, and details are kept newest first, at most the
 * contract's LEAD_DETAILS_MAX.
 */

/** One contact of a lead or clean lead (the contract's leadDetail). */
export type Detail = z.infer<typeof leadDetail>;

/** Newest first (ISO timestamps compare as text). */
export const byNewest = (a: Detail, b: Detail) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);

/** The details with a new one, newest first, at most LEAD_DETAILS_MAX (the oldest drop). */
export const mergeDetails = (details: readonly Detail[] | null | undefined, detail: Detail): Detail[] =>
  [detail, ...(details ?? [])].sort(byNewest).slice(0, LEAD_DETAILS_MAX);

/** A person's name as stored: one space between words, trimmed, at most 120 characters ('' when blank). */
export const cleanName = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);
