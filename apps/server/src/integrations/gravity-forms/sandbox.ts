import type { FetchLike, GravityField } from './client.js';
import { createFakeSite, type FakeForm, type FakeSite } from './fake-site.js';

/**
 * The demo's sandbox site (decision 0050): a Gravity Forms site whose host ends in
 * `.sandbox.test` (reserved, never resolves: RFC 6761) is answered in-process by the fake of
 * fake-site.ts with two forms and their entries, so /gravity-forms has forms, entries and leads
 * on a fresh start with no internet. Keys must start with `ck_sandbox` / `cs_sandbox` (others are
 * refused as a real site would). Each server process keeps its sandbox in memory, one per company
 * and host.
 */
export const GF_SANDBOX_SUFFIX = '.sandbox.test';

export const isGravitySandbox = (url: string) => {
  try {
    return new URL(url).hostname.endsWith(GF_SANDBOX_SUFFIX);
  } catch {
    return false;
  }
};

const contactFields: GravityField[] = [
  { id: '1', label: 'Nombre', type: 'name', inputs: [{ id: '1.3', label: 'Nombre' }, { id: '1.6', label: 'Apellido' }] },
  { id: '2', label: 'Correo electrónico', type: 'email' },
  { id: '3', label: 'Teléfono', type: 'phone' },
  { id: '4', label: 'Mensaje', type: 'textarea' },
  { id: '5', label: 'Acepto la política de privacidad', type: 'consent' },
];
const quoteFields: GravityField[] = [
  { id: '1', label: 'Nombre y empresa', type: 'text' },
  { id: '2', label: 'Celular', type: 'phone' },
  { id: '3', label: 'Correo', type: 'email' },
  { id: '4', label: 'Cantidad aproximada (cajas)', type: 'number' },
  { id: '5', label: 'Detalle del pedido', type: 'textarea' },
];

const daysAgo = (n: number, hour: number) => {
  const d = new Date(Date.now() - n * 86_400_000);
  d.setUTCHours(hour, 17, 0, 0);
  return d;
};

/** The sandbox's forms: submissions of the last two weeks, one without phone or e-mail and one of a person the demo already has. */
export function sandboxForms(): FakeForm[] {
  return [
    { id: 1, title: 'Contacto web', fields: contactFields, entries: [] },
    { id: 3, title: 'Cotización mayorista', fields: quoteFields, entries: [] },
  ];
}

export function fillSandbox(site: FakeSite) {
  const contact: Array<[number, number, Record<string, string>]> = [
    [13, 15, { '1.3': 'Rosa', '1.6': 'Quispe Mamani', '2': 'rosa.quispe@gmail.com', '3': '987 654 321', '4': '¿Hacen delivery a San Juan de Lurigancho? Quisiera pedir una canasta.', '5': '1' }],
    [11, 19, { '1.3': 'Jorge', '1.6': 'Salazar', '2': '', '3': '+51 955 123 456', '4': 'Buenas, ¿tienen gaseosas de 3 litros por paquete?', '5': '1' }],
    [9, 14, { '1.3': 'Lucía', '1.6': 'Fernández', '2': 'lucia.fernandez@outlook.com', '3': '', '4': 'Quiero saber el horario de atención del local de Surquillo.', '5': '1' }],
    [7, 22, { '1.3': 'Anónimo', '1.6': '', '2': '', '3': '', '4': 'Me gustaría que vendan pan integral.', '5': '1' }],
    [5, 13, { '1.3': 'Carmen', '1.6': 'Rojas', '2': 'carmen.rojas@yahoo.com', '3': '987001122', '4': 'Necesito factura para mi pedido de la semana pasada.', '5': '1' }],
    [3, 16, { '1.3': 'Pedro', '1.6': 'Huamán', '2': 'pedro.huaman@gmail.com', '3': '961 222 333', '4': '¿Aceptan Yape o Plin?', '5': '1' }],
    [1, 18, { '1.3': 'Milagros', '1.6': 'Torres', '2': 'mili.torres@gmail.com', '3': '944 555 666', '4': 'Hola, quisiera cotizar bebidas para un cumpleaños de 50 personas.', '5': '1' }],
  ];
  const quote: Array<[number, number, Record<string, string>]> = [
    [12, 10, { '1': 'Alberto Díaz — Minimarket Don Beto', '2': '998 877 665', '3': 'compras@donbeto.pe', '4': '40', '5': 'Agua mineral y gaseosas surtidas, entrega quincenal.' }],
    [6, 11, { '1': 'Sandra Paredes — Restaurante El Tumbo', '2': '976 543 210', '3': 'sandra@eltumbo.pe', '4': '25', '5': 'Cerveza y refrescos para la semana, con factura.' }],
    [2, 9, { '1': 'Hotel Miraflores Park', '2': '12345', '3': 'logistica@miraflorespark.pe', '4': '60', '5': 'Snacks para minibar, pedido mensual.' }],
  ];
  for (const [days, hour, values] of contact) site.submit(1, values, daysAgo(days, hour));
  for (const [days, hour, values] of quote) site.submit(3, values, daysAgo(days, hour));
}

const sites = new Map<string, FakeSite>();

/** The company's sandbox site at that host, made (with its entries) the first time it is asked. */
export function sandboxSite(companyId: string, url: string, keys: { consumerKey: string; consumerSecret: string }): FakeSite {
  const host = new URL(url).hostname;
  const key = `${companyId}|${host}`;
  let site = sites.get(key);
  if (!site) {
    site = createFakeSite({ consumerKey: 'ck_sandbox', consumerSecret: 'cs_sandbox', forms: sandboxForms() });
    fillSandbox(site);
    sites.set(key, site);
  }
  // the sandbox takes any keys that say they are the sandbox's, and refuses the rest as a real site would
  const sandboxKeys = keys.consumerKey.startsWith('ck_sandbox') && keys.consumerSecret.startsWith('cs_sandbox');
  site.keys = sandboxKeys ? { ...keys } : { consumerKey: 'ck_sandbox', consumerSecret: 'cs_sandbox' };
  return site;
}

/** A fetch answered by the company's sandbox site. */
export function gravitySandboxFetch(companyId: string, url: string, keys: { consumerKey: string; consumerSecret: string }): FetchLike {
  const site = sandboxSite(companyId, url, keys);
  return async (requestUrl, init) => {
    const u = new URL(requestUrl);
    const prefix = '/wp-json/gf/v2';
    const answer = u.pathname.startsWith(prefix)
      ? site.handle({ method: init.method, path: u.pathname.slice(prefix.length) || '/', query: u.searchParams, authorization: init.headers.authorization })
      : { status: 404, headers: {}, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } };
    const text = JSON.stringify(answer.body);
    return { status: answer.status, headers: { get: (name: string) => answer.headers[name.toLowerCase()] ?? null }, text: async () => text };
  };
}
