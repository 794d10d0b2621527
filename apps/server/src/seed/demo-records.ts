/**
 * Generated demo records for the lists that live on volume, so a newcomer pages through a
 * living product (several pages at 30 per page). Deterministic: the same demo every time,
 * dated over the last four months so lists and metrics look like a working business.
 */
const firstNames = ['María', 'José', 'Lucía', 'Carlos', 'Rosa', 'Jorge', 'Ana', 'Luis', 'Carmen', 'Miguel', 'Sofía', 'Diego', 'Valeria', 'Andrés', 'Daniela', 'Fernando', 'Gabriela', 'Ricardo', 'Patricia', 'Renzo'];
const lastNames = ['Quispe', 'Flores', 'Sánchez', 'Rodríguez', 'García', 'Mamani', 'Huamán', 'Chávez', 'Torres', 'Ramírez', 'Vargas', 'Castillo', 'Rojas', 'Mendoza', 'Paredes', 'Gutiérrez'];
const messages = [
  'Hola, ¿tienen delivery a Surco?',
  '¿Cuánto cuesta el pack familiar?',
  'Quiero hacer un pedido para mañana',
  '¿Aceptan Yape o Plin?',
  'Buenas tardes, ¿siguen con la promoción?',
  '¿Tienen stock de la talla M?',
  'Gracias, ya realicé el pago',
  '¿A qué hora abren el sábado?',
];
const statuses = ['sin-asignar', 're-conectar', 'informado-al-agente', 'compra-realizada', 'compra-fallida'] as const;
const platforms = ['whatsapp', 'whatsapp', 'facebook', 'instagram', 'whatsapp', 'web'] as const;
const DAY = 86_400_000;

/** A small deterministic generator (LCG): the demo is the same on every machine. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}
const pick = <T>(r: () => number, list: readonly T[]) => list[Math.floor(r() * list.length)];

function people(count: number, seed: number) {
  const r = random(seed);
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const first = pick(r, firstNames);
    const last = pick(r, lastNames);
    const at = new Date(now - Math.floor(r() * 120 * DAY));
    const slug = `${first}.${last}${i}`.normalize('NFD').replace(/[^a-zA-Z0-9.]/g, '').toLowerCase();
    return { name: `${first} ${last}`, telefono: `519${String(10_000_000 + Math.floor(r() * 89_999_999))}`, email: `${slug}@gmail.com`, at, r };
  });
}

const dated = (at: Date) => ({ createdAt: at, updatedAt: at });

export const demoRecords: Record<string, () => Array<Record<string, unknown>>> = {
  leads: () =>
    people(95, 11).map((p, i) => ({
      name: p.name,
      telefono: p.telefono,
      ...(i % 3 === 0 ? { email: p.email } : {}),
      platform: pick(p.r, platforms),
      status: pick(p.r, statuses),
      details: [{ message: pick(p.r, messages), source: 'WhatsApp', updatedAt: p.at.toISOString(), ...(i % 3 === 0 ? { email: p.email } : {}) }],
      ...dated(p.at),
    })),
  'clean-leads': () =>
    people(70, 23).map((p) => ({
      name: p.name,
      telefono: p.telefono,
      email: p.email,
      status: pick(p.r, statuses),
      details: [{ email: p.email, message: pick(p.r, messages), updatedAt: p.at.toISOString() }],
      ...dated(p.at),
    })),
  chats: () =>
    people(64, 37).map((p, i) => ({
      contactName: p.name,
      platform: pick(p.r, ['whatsapp', 'facebook', 'instagram'] as const),
      status: i % 4 === 0 ? 'closed' : 'open',
      unreadCount: i % 5 === 0 ? 0 : Math.floor(p.r() * 6),
      lastMessageAt: p.at.toISOString(),
      lastMessagePreview: pick(p.r, messages),
      ...dated(p.at),
    })),
  contactos: () => people(40, 41).map((p) => ({ nombre: p.name, telefono: p.telefono, email: p.email, ...dated(p.at) })),
  // a month of the model-call ledger (/seguimiento-gpt, decision 0046): mostly conversation analyses by
  // gpt-4o-mini, a few summaries and connection tests, some failures answered by the embedded engine;
  // the cost in the company's currency is left to the reading (each demo company has its own)
  'llm-tracker': () => {
    const r = random(67);
    const now = Date.now();
    const errors = ['El servicio respondió 500: The server had an error while processing your request', 'Tiempo de espera agotado (30 s)', 'La respuesta no cumple el esquema (motive: Invalid option)', 'El proveedor limitó las llamadas o la cuenta no tiene saldo (429)'];
    return Array.from({ length: 420 }, () => {
      const name = `${pick(r, firstNames)} ${pick(r, lastNames)}`;
      // busier on weekdays and in the afternoon: the chats' own rhythm
      let at = new Date(now - Math.floor(r() * 30 * DAY));
      if ([0, 6].includes(at.getUTCDay()) && r() < 0.5) at = new Date(at.getTime() - 2 * DAY);
      const roll = r();
      const feature = roll < 0.86 ? ('analysis' as const) : roll < 0.96 ? ('summary' as const) : roll < 0.985 ? ('chat' as const) : ('connection_test' as const);
      const failed = r() < 0.05;
      const timeout = failed && r() < 0.3;
      const promptTokens = failed && !timeout && r() < 0.3 ? 900 + Math.floor(r() * 800) : failed ? 0 : feature === 'summary' ? 1800 + Math.floor(r() * 2400) : 420 + Math.floor(r() * 1900);
      const completionTokens = promptTokens === 0 ? 0 : feature === 'summary' ? 140 + Math.floor(r() * 180) : 60 + Math.floor(r() * 70);
      return {
        name: { analysis: `Análisis del chat con ${name}`, summary: `Resumen del chat con ${name}`, chat: `Respuesta sugerida a ${name}`, connection_test: 'Prueba de conexión' }[feature],
        model: 'gpt-4o-mini',
        feature,
        promptTokens,
        completionTokens,
        costUsd: (promptTokens * 0.15 + completionTokens * 0.6) / 1_000_000,
        latencyMs: timeout ? 30_000 : 650 + Math.floor(r() * (feature === 'summary' ? 4200 : 2600)),
        outcome: failed ? (feature === 'connection_test' ? 'error' : 'fallback') : 'ok',
        ...(failed ? { error: timeout ? errors[1] : pick(r, [errors[0], errors[2], errors[3]]) } : {}),
        ...dated(at),
      };
    });
  },
};
