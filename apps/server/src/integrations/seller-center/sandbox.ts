import type { FetchLike } from './client.js';
import { createFakeSellerCenter, type FakeSellerCenter } from './fake.js';

/**
 * The demo's sandbox marketplace accounts (decision 0035): a source whose API address ends in
 * `.sandbox.test` (a reserved name that never resolves, RFC 6761) is answered in-process by a
 * fake Seller Center with a small catalogue and orders of its country, so a fresh `npm start`
 * syncs, edits, sends prices and stock, downloads documents and marks orders ready to ship with
 * no internet. Its API key must start with `sandbox` (any other is refused as a real Seller
 * Center refuses a wrong key); the API user is whatever e-mail the source holds. Each server
 * process keeps its sandbox accounts in memory.
 */
export const SANDBOX_HOST_SUFFIX = '.sandbox.test';

export const isSandboxUrl = (url: string | undefined) => {
  try {
    return !!url && new URL(url).hostname.endsWith(SANDBOX_HOST_SUFFIX);
  } catch {
    return false;
  }
};

interface SandboxSku {
  sku: string;
  variation?: string;
  price: number;
  sale?: number;
  stock: number;
  status?: 'active' | 'inactive';
}
interface SandboxProduct {
  parent: string;
  name: string;
  brand: string;
  category: string;
  skus: SandboxSku[];
}
interface SandboxOrder {
  id: string;
  number: string;
  customer: [string, string];
  email: string;
  phone: string;
  address: string;
  city: string;
  region: string;
  payment: string;
  daysAgo: number;
  status: string;
  skus: string[];
  shipping?: number;
  /** The customer's document as Seller Center gives it (NationalRegistrationNumber). */
  taxId?: string;
}

/** Perú and Chile: some of the same parent SKUs at their own prices (the crossover shows what differs). */
export const sandboxAccounts: Record<string, { products: SandboxProduct[]; orders: SandboxOrder[] }> = {
  PE: {
    products: [
      {
        parent: 'POLO-PIMA',
        name: 'Polo piqué algodón pima',
        brand: 'Pima Perú',
        category: 'Polos',
        skus: [
          { sku: 'POLO-PIMA-BLANCO-M', variation: 'Blanco · M', price: 59.9, stock: 30 },
          { sku: 'POLO-PIMA-BLANCO-L', variation: 'Blanco · L', price: 59.9, stock: 24 },
          { sku: 'POLO-PIMA-AZUL-M', variation: 'Azul marino · M', price: 59.9, sale: 49.9, stock: 18 },
          { sku: 'POLO-PIMA-AZUL-L', variation: 'Azul marino · L', price: 59.9, stock: 0 },
        ],
      },
      {
        parent: 'CHOMPA-ALP',
        name: 'Chompa de alpaca',
        brand: 'Tejidos del Sur',
        category: 'Chompas',
        skus: [
          { sku: 'CHOMPA-ALP-GRIS-M', variation: 'Gris · M', price: 189, sale: 169, stock: 12 },
          { sku: 'CHOMPA-ALP-GRIS-L', variation: 'Gris · L', price: 189, stock: 13 },
        ],
      },
      {
        parent: 'ZAP-URB',
        name: 'Zapatillas urbanas',
        brand: 'Andes Run',
        category: 'Zapatillas',
        skus: [
          { sku: 'ZAP-URB-40', variation: '40', price: 249, stock: 5 },
          { sku: 'ZAP-URB-41', variation: '41', price: 249, stock: 7 },
          { sku: 'ZAP-URB-42', variation: '42', price: 249, stock: 0, status: 'inactive' },
        ],
      },
      { parent: 'CASACA-IMP', name: 'Casaca impermeable', brand: 'Andes Outdoor', category: 'Casacas', skus: [{ sku: 'CASACA-IMP', price: 219, stock: 9 }] },
      { parent: 'MOCHILA-URB', name: 'Mochila urbana 20 L', brand: 'Andes Outdoor', category: 'Mochilas', skus: [{ sku: 'MOCHILA-URB', price: 129, stock: 16 }] },
    ],
    orders: [
      { id: '2204510101', taxId: '45871236', number: '3150044101', customer: ['María', 'Fernández'], email: 'maria.fernandez@gmail.com', phone: '987001122', address: 'Jr. Huallaga 320', city: 'Lima', region: 'Lima', payment: 'Tarjeta de crédito', daysAgo: 0, status: 'pending', skus: ['POLO-PIMA-BLANCO-M', 'CHOMPA-ALP-GRIS-M'], shipping: 9.9 },
      { id: '2204510102', taxId: '20601234565', number: '3150044102', customer: ['Luis', 'Paredes'], email: 'luis.paredes@hotmail.com', phone: '955443322', address: 'Av. Arequipa 2450', city: 'Lince', region: 'Lima', payment: 'Tarjeta de débito', daysAgo: 1, status: 'ready_to_ship', skus: ['ZAP-URB-41'] },
      { id: '2204510103', taxId: '20601234560', number: '3150044103', customer: ['Rosa', 'Quispe'], email: 'rosa.quispe@gmail.com', phone: '944112233', address: 'Calle Mercaderes 115', city: 'Arequipa', region: 'Arequipa', payment: 'Pago contra entrega', daysAgo: 3, status: 'shipped', skus: ['CASACA-IMP'], shipping: 15 },
      { id: '2204510104', number: '3150044104', customer: ['Jorge', 'Huamán'], email: 'jorge.huaman@yahoo.com', phone: '933221100', address: 'Av. El Sol 640', city: 'Cusco', region: 'Cusco', payment: 'Tarjeta de crédito', daysAgo: 8, status: 'delivered', skus: ['POLO-PIMA-AZUL-M', 'POLO-PIMA-AZUL-M'] },
      { id: '2204510105', number: '3150044105', customer: ['Carla', 'Rojas'], email: 'carla.rojas@gmail.com', phone: '922334455', address: 'Av. Larco 880', city: 'Trujillo', region: 'La Libertad', payment: 'Yape', daysAgo: 12, status: 'canceled', skus: ['MOCHILA-URB'] },
      { id: '2204510106', number: '3150044106', customer: ['Ana', 'Torres'], email: 'ana.torres@outlook.com', phone: '911223344', address: 'Jr. Lima 210', city: 'Piura', region: 'Piura', payment: 'Tarjeta de crédito', daysAgo: 20, status: 'returned', skus: ['ZAP-URB-40'] },
    ],
  },
  CL: {
    products: [
      {
        parent: 'POLO-PIMA',
        name: 'Polo piqué algodón pima',
        brand: 'Pima Perú',
        category: 'Polos',
        skus: [
          { sku: 'POLO-PIMA-BLANCO-M', variation: 'Blanco · M', price: 24990, stock: 22 },
          { sku: 'POLO-PIMA-BLANCO-L', variation: 'Blanco · L', price: 24990, stock: 18 },
        ],
      },
      { parent: 'CHOMPA-ALP', name: 'Chompa de alpaca', brand: 'Tejidos del Sur', category: 'Chompas', skus: [{ sku: 'CHOMPA-ALP-GRIS-M', variation: 'Gris · M', price: 79990, stock: 6, status: 'inactive' }] },
      {
        parent: 'CASACA-IMP',
        name: 'Casaca impermeable',
        brand: 'Andes Outdoor',
        category: 'Casacas',
        skus: [
          { sku: 'CASACA-IMP-M', variation: 'M', price: 54990, stock: 8 },
          { sku: 'CASACA-IMP-L', variation: 'L', price: 54990, sale: 49990, stock: 6 },
        ],
      },
    ],
    orders: [
      { id: '1104089001', taxId: '16.512.357-3', number: '2771009001', customer: ['Camila', 'Soto'], email: 'camila.soto@gmail.com', phone: '912345678', address: 'Av. Providencia 1234, depto 101', city: 'Santiago', region: 'Metropolitana', payment: 'Tarjeta de crédito', daysAgo: 0, status: 'pending', skus: ['CASACA-IMP-M'], shipping: 3990 },
      { id: '1104089002', taxId: '76.123.456-0', number: '2771009002', customer: ['Diego', 'Muñoz'], email: 'diego.munoz@gmail.com', phone: '987654321', address: 'Los Carrera 455', city: 'Concepción', region: 'Biobío', payment: 'Webpay', daysAgo: 2, status: 'shipped', skus: ['POLO-PIMA-BLANCO-L', 'POLO-PIMA-BLANCO-L'] },
      { id: '1104089003', number: '2771009003', customer: ['Francisca', 'Vega'], email: 'francisca.vega@gmail.com', phone: '976543210', address: 'Av. España 1680', city: 'Valparaíso', region: 'Valparaíso', payment: 'Webpay', daysAgo: 6, status: 'delivered', skus: ['CHOMPA-ALP-GRIS-M'] },
      { id: '1104089004', number: '2771009004', customer: ['Tomás', 'Reyes'], email: 'tomas.reyes@gmail.com', phone: '965432109', address: 'Calle Prat 820', city: 'Antofagasta', region: 'Antofagasta', payment: 'Tarjeta de débito', daysAgo: 15, status: 'canceled', skus: ['CASACA-IMP-L'] },
    ],
  },
};

/** An account filled with its country's sandbox catalogue and orders (empty for a country without one). */
export function createSandboxAccount(country: string, credentials: { userId: string; apiKey: string }, now: () => number = Date.now): FakeSellerCenter {
  const account = createFakeSellerCenter({ ...credentials, country, now });
  const data = sandboxAccounts[country];
  if (!data) return account;
  for (const p of data.products) {
    for (const s of p.skus) {
      account.admin.product({
        SellerSku: s.sku,
        ParentSku: p.parent,
        Name: p.name,
        Variation: s.variation ?? '',
        Brand: p.brand,
        PrimaryCategory: p.category,
        Description: p.name,
        Price: s.price,
        SalePrice: s.sale,
        Quantity: s.stock,
        Status: s.status ?? 'active',
      });
    }
  }
  // the oldest first, so their ids grow with time as Seller Center's do
  for (const o of [...data.orders].sort((a, b) => b.daysAgo - a.daysAgo)) {
    const at = now() - o.daysAgo * 86_400_000 - 3_600_000;
    account.admin.order({
      id: o.id,
      number: o.number,
      firstName: o.customer[0],
      lastName: o.customer[1],
      email: o.email,
      phone: o.phone,
      address: o.address,
      city: o.city,
      region: o.region,
      paymentMethod: o.payment,
      ...(o.taxId ? { taxId: o.taxId } : {}),
      createdAt: at,
      items: o.skus.map((sku, i) => ({ sku, status: o.status, shipping: i === 0 ? o.shipping : 0 })),
    });
  }
  return account;
}

const sandboxes = new Map<string, FakeSellerCenter>();

/**
 * The fetch of a sandbox account: one per company and host, created on first use. A key that does
 * not start with `sandbox` meets an account holding another key: the signature is refused (E007).
 */
export function sandboxFetch(companyId: string, url: string, country: string, credentials: { userId: string; apiKey: string }): FetchLike {
  const host = new URL(url).hostname;
  const id = `${companyId}:${host}`;
  if (!/^sandbox/.test(credentials.apiKey)) return createFakeSellerCenter({ userId: credentials.userId, apiKey: 'sandbox-otra-clave', country }).fetch();
  let account = sandboxes.get(id);
  if (!account || account.account.apiKey !== credentials.apiKey || account.account.userId !== credentials.userId) {
    account = createSandboxAccount(country, credentials);
    sandboxes.set(id, account);
  }
  return account.fetch();
}
