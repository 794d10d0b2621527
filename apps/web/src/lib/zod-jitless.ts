/**
 * Imported first by each page's entry. zod 4 compiles object parsers with `new Function` after
 * probing that eval is allowed; under the Content-Security-Policy (script-src 'self', no eval:
 * decision 0063) the probe is refused and the browser reports a violation even though zod
 * swallows it. `jitless` skips the probe and the compiled parsers (the SPA validates small
 * forms: the interpreted parser is enough). Set through zod's global, so the first load does
 * not take zod for it; the same object whether zod was loaded before or not.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
