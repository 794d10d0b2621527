/**
 * Imagina templates' named variables (decision 0043): `{{nombre}}`, `{{empresa}}`… filled from
 * the customer's file when a send writes each person's message.
 */
/** The customer's values an Imagina template may name in its text (`{{nombre}}`…), from the person's file. */
export const imaginaVariables = {
  nombre: 'Nombre del cliente',
  telefono: 'Teléfono del cliente',
  email: 'Correo del cliente',
  empresa: 'Nombre de tu empresa',
  agente: 'Quien envía',
} as const;
export type ImaginaVariable = keyof typeof imaginaVariables;
const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** The variables a text names, in order, once each. */
export function imaginaVariablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]))];
}
/** The text with each `{{variable}}` replaced; `missing` lists those without a value. */
export function renderImagina(text: string, values: Partial<Record<string, string | undefined>>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const out = text.replace(VARIABLE, (whole, name: string) => {
    const v = values[name]?.trim();
    if (!v) {
      if (!missing.includes(name)) missing.push(name);
      return whole;
    }
    return v;
  });
  return { text: out, missing };
}

