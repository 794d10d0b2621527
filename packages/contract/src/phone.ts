/**
 * Countries the product sells in (SPEC §9) and their dialling codes. The spec lists 58 for
 * Colombia; 58 is Venezuela's code and Colombia's is 57 (docs/decisions/0005-colombia-57.md).
 */
export const countries = [
  { code: 'PE', name: 'Perú', dial: '51' },
  { code: 'CL', name: 'Chile', dial: '56' },
  { code: 'CO', name: 'Colombia', dial: '57' },
  { code: 'ES', name: 'España', dial: '34' },
] as const;
export type CountryCode = (typeof countries)[number]['code'];
export const countryCodes = countries.map((c) => c.code) as [CountryCode, ...CountryCode[]];
