import type { Resource } from '../define-resource.js';
import { brands } from './brands.js';
import { colors } from './colors.js';
import { locaciones } from './locaciones.js';

/** Every standard resource, by API key. The server and the web iterate this. */
export const resources = { brands, colors, locaciones } satisfies Record<string, Resource>;
export type ResourceKey = keyof typeof resources;
export const resourceList: Resource[] = Object.values(resources);
