import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spanishIssue } from './zod-messages.js';

const messagesOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value, { error: (issue) => spanishIssue(issue) }).error?.issues.map((i) => i.message);

describe('the Spanish zod error map', () => {
  const schema = z.object({ n: z.number(), tags: z.array(z.string()), kind: z.enum(['a', 'b']), url: z.url() }).strict();

  it('words what a schema leaves to zod in Spanish', () => {
    expect(messagesOf(schema, { n: 'x', tags: 'y', kind: 'c', url: 'nada', extra: 1 })).toEqual([
      'Este campo debe ser un número válido',
      'Debe ser una lista',
      'Elige una de las opciones disponibles',
      'Debe ser una URL válida',
      'Campo no permitido: extra',
    ]);
    expect(messagesOf(schema, {})).toEqual(Array(4).fill('Este campo es requerido'));
    expect(messagesOf(schema, undefined)).toEqual(['Falta el cuerpo de la solicitud']);
  });

  it('never overrides a schema’s own message', () => {
    expect(messagesOf(z.string().min(3, 'Muy corto'), 'a')).toEqual(['Muy corto']);
  });
});
