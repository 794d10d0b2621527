import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

type Schema = z.ZodType<FieldValues, FieldValues>;

/**
 * `zodResolver(schema)` for a contract schema that is imported on first validation.
 * The login page uses it so zod stays out of the first load (≤ 150 kB gzip); the schema
 * is still the contract's, the same one the server validates with.
 */
export type LazyResolver<S extends Schema> = Resolver<z.input<S>, unknown, z.output<S>> & {
  /** Starts loading the schema and resolver (call when the user starts typing). */
  preload: () => void;
};

export function lazyZodResolver<S extends Schema>(load: () => Promise<S>): LazyResolver<S> {
  let ready: Promise<Resolver<z.input<S>, unknown, z.output<S>>> | null = null;
  const get = () => {
    ready ??= Promise.all([import('@hookform/resolvers/zod'), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    );
    ready.catch(() => {
      ready = null;
    });
    return ready;
  };
  const resolver: Resolver<z.input<S>, unknown, z.output<S>> = async (values, context, options) =>
    (await get())(values, context, options);
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
