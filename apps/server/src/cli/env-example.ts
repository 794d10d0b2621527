import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envSchema, repoRoot } from '../config.js';

/** Where `npm run env:example` writes (the repository's root). */
export const envExampleFile = path.join(repoRoot, '.env.example');

/** A field's default, the values it takes and whether it may be left out, read from its zod schema. */
function describeField(field: z.ZodType): { fallback?: unknown; values?: string[] } {
  let inner: z.ZodType = field;
  let fallback: unknown;
  for (;;) {
    if (inner instanceof z.ZodDefault) {
      fallback = inner.def.defaultValue;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else break;
  }
  return { fallback, values: inner instanceof z.ZodEnum ? (inner.options as string[]) : undefined };
}

/**
 * .env.example from the one config schema (decision 0066): each variable with its description,
 * the values it takes and its default, commented out, so a copy changes nothing until a line is
 * uncommented. A variable without a description fails here: the schema is where it is documented.
 */
export function envExample(): string {
  const lines = [
    '# Mostrador: variables de entorno. Generado por `npm run env:example` desde',
    '# apps/server/src/config.ts (envSchema): no lo edites a mano. Detalle en docs/OPERATIONS.md.',
    '# Todas van comentadas con su valor por defecto (vacío: sin valor por defecto).',
  ];
  for (const [name, field] of Object.entries(envSchema.shape) as [string, z.ZodType][]) {
    if (!field.description) throw new Error(`${name} no tiene descripción en envSchema (.describe en apps/server/src/config.ts)`);
    const { fallback, values } = describeField(field);
    lines.push('', `# ${field.description}`);
    if (values) lines.push(`# Valores: ${values.join(' | ')}`);
    const value = fallback === undefined ? '' : String(fallback);
    // quoted when it has a space or a quote: node --env-file and compose's env_file read it whole
    lines.push(`#${name}=${/[\s"'#]/.test(value) ? JSON.stringify(value) : value}`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  writeFileSync(envExampleFile, envExample());
  console.log(`Escrito ${path.relative(process.cwd(), envExampleFile) || envExampleFile}`);
}
