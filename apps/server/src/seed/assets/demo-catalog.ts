import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/database.js';
import { productImagePath, type ProductShape } from '../../modules/orders/product-images.js';

/**
 * The demo shop of Demo Perú (issue 12): dozens of products with pictures drawn by the product
 * itself (GET /api/product-images, no internet), clothes in sizes and colours as variants, two
 * published catalogues (the general one is the default) and orders in every status. Runs after
 * the generic seed, which already made the contract's example brands, categories, colours,
 * products, catalogues and orders.
 */
type Row = Record<string, unknown>;

interface DemoProduct {
  name: string;
  sku: string;
  price: number;
  stock: number;
  brand: string;
  category: string;
  shape: ProductShape;
  hex: string;
  description: string;
  /** Clothes: sizes × colours, each its own SKU and stock. */
  sizes?: string[];
  colors?: string[];
}

const drinks: DemoProduct[] = [
  ['Inca Kola 500 ml', 'IK-500', 3.5, 'botella', 'f2c200', 'La bebida de sabor nacional, botella personal'],
  ['Coca-Cola 1.5 L', 'CC-1500', 7.9, 'botella', 'd6001c', 'Gaseosa sabor original, botella familiar'],
  ['Agua San Mateo 625 ml', 'SM-625', 2.2, 'botella', '2b9fd9', 'Agua mineral de manantial sin gas'],
  ['Guaraná Backus 3 L', 'GB-3000', 9.5, 'botella', '2e8b3a', 'Gaseosa sabor guaraná, botella de 3 litros'],
  ['Cerveza Pilsen lata 355 ml', 'PL-355', 4.8, 'lata', '1f6f3f', 'Cerveza rubia en lata, bien helada'],
  ['Frugos del Valle durazno 1 L', 'FV-DUR-1', 5.4, 'caja', 'f28c28', 'Néctar de durazno en caja'],
  ['Red Bull 250 ml', 'RB-250', 6.9, 'lata', '1d3c8f', 'Bebida energizante en lata'],
  ['Chicha morada Negrita 1 L', 'CH-MOR-1', 6.2, 'botella', '5a1f6b', 'Chicha morada lista para servir'],
].map(([name, sku, price, shape, hex, description], i) => ({
  name: name as string,
  sku: sku as string,
  price: price as number,
  stock: [120, 60, 200, 35, 144, 48, 30, 40][i],
  brand: i === 0 || i === 3 ? 'Inca Kola' : 'Alicorp',
  category: 'Bebidas',
  shape: shape as ProductShape,
  hex: hex as string,
  description: description as string,
}));

const groceries: DemoProduct[] = [
  ['Arroz Costeño extra 5 kg', 'AC-5KG', 24.9, 'bolsa', 'c9302c', 'Arroz extra añejo, bolsa de 5 kilos'],
  ['Aceite Primor 900 ml', 'AP-900', 10.5, 'botella', 'e8b416', 'Aceite vegetal premium'],
  ['Azúcar rubia Cartavio 1 kg', 'AZ-1KG', 4.3, 'bolsa', 'b5651d', 'Azúcar rubia de caña'],
  ['Fideos Don Vittorio spaghetti 950 g', 'DV-SPA', 5.6, 'caja', '1f4fa3', 'Fideos largos de sémola de trigo'],
  ['Atún Florida en aceite 140 g', 'AF-140', 6.8, 'lata', '0c7bb3', 'Filete de atún en aceite vegetal'],
  ['Leche Gloria azul 400 g (pack x6)', 'GL-PACK6', 23.5, 'lata', '1c57a5', 'Seis latas de leche evaporada entera'],
  ['Mayonesa Alacena 475 g', 'MA-475', 9.9, 'frasco', 'f1d44b', 'Mayonesa en doypack'],
  ['Café Altomayo 180 g', 'CA-180', 16.9, 'frasco', '5b3a29', 'Café instantáneo de altura'],
  ['Avena Quaker 900 g', 'AQ-900', 8.7, 'bolsa', 'c43d2f', 'Hojuelas de avena tradicional'],
  ['Menestra lentejas 500 g', 'LN-500', 5.2, 'bolsa', '7a8b2c', 'Lentejas bebé seleccionadas'],
].map(([name, sku, price, shape, hex, description], i) => ({
  name: name as string,
  sku: sku as string,
  price: price as number,
  stock: [80, 90, 150, 75, 60, 40, 55, 30, 45, 70][i],
  brand: i === 5 ? 'Gloria' : 'Alicorp',
  category: 'Abarrotes',
  shape: shape as ProductShape,
  hex: hex as string,
  description: description as string,
}));

const sweets: DemoProduct[] = [
  ['Sublime almendras 30 g', 'SUB-ALM', 2.5, 'caja', '8b2c1d', 'El chocolate de siempre, ahora con almendras'],
  ['Galletas Casino menta (pack x6)', 'GC-MENTA', 4.9, 'caja', '2fa37a', 'Galletas rellenas sabor menta'],
  ['Cua Cua 26 g', 'CUA-26', 1.2, 'caja', 'f2a900', 'Galleta bañada en chocolate'],
  ['Chocman 33 g', 'CHM-33', 1.0, 'caja', '6b3a1e', 'Keke bañado en chocolate'],
  ['Caramelos Halls menta (bolsa)', 'HALLS-B', 3.8, 'bolsa', '2aa7c9', 'Caramelos duros sabor menta'],
  ['Princesa chocolate 30 g', 'PRI-30', 1.5, 'caja', 'd4457a', 'Chocolate con leche relleno'],
].map(([name, sku, price, shape, hex, description], i) => ({
  name: name as string,
  sku: sku as string,
  price: price as number,
  stock: [300, 80, 240, 200, 60, 150][i],
  brand: i === 0 ? 'Sublime' : 'Alicorp',
  category: 'Golosinas',
  shape: shape as ProductShape,
  hex: hex as string,
  description: description as string,
}));

const care: DemoProduct[] = [
  ['Champú Head & Shoulders 375 ml', 'HS-375', 19.9, 'frasco', '1b6fb5', 'Champú anticaspa limpieza renovadora'],
  ['Jabón Protex avena (pack x3)', 'PX-AV3', 9.5, 'caja', 'e0c36b', 'Jabón antibacterial con avena'],
  ['Pasta dental Colgate triple acción 90 g', 'CG-90', 5.9, 'caja', 'd81f26', 'Protección contra caries, blancura y aliento'],
  ['Papel higiénico Elite (x4)', 'EL-4', 6.5, 'bolsa', '6fb1e0', 'Papel higiénico doble hoja'],
  ['Desodorante Rexona 150 ml', 'RX-150', 12.9, 'frasco', '27346b', 'Antitranspirante en aerosol'],
].map(([name, sku, price, shape, hex, description], i) => ({
  name: name as string,
  sku: sku as string,
  price: price as number,
  stock: [40, 90, 110, 130, 50][i],
  brand: 'Alicorp',
  category: 'Cuidado personal',
  shape: shape as ProductShape,
  hex: hex as string,
  description: description as string,
}));

const clothes: DemoProduct[] = [
  { name: 'Polo algodón pima clásico', sku: 'POLO-PIMA', price: 49.9, stock: 0, brand: 'Andina Textil', category: 'Ropa', shape: 'polo', hex: '28156c', description: 'Polo de algodón pima peruano, cuello redondo, suave y fresco', sizes: ['S', 'M', 'L', 'XL'], colors: ['Morado Mostrador', 'Rojo carmesí', 'Azul marino'] },
  { name: 'Polo deportivo dry-fit', sku: 'POLO-DRY', price: 39.9, stock: 0, brand: 'Andina Textil', category: 'Ropa', shape: 'polo', hex: '32cd32', description: 'Tela que respira para entrenar o correr', sizes: ['S', 'M', 'L'], colors: ['Verde limón', 'Azul marino'] },
  { name: 'Zapatillas urbanas Andes', sku: 'ZAP-ANDES', price: 149.0, stock: 0, brand: 'Andina Textil', category: 'Ropa', shape: 'zapatilla', hex: 'dc143c', description: 'Zapatillas de lona con suela de caucho', sizes: ['38', '39', '40', '41', '42'], colors: ['Rojo carmesí'] },
  { name: 'Gorra bordada Mostrador', sku: 'GORRA-M', price: 35.0, stock: 0, brand: 'Andina Textil', category: 'Ropa', shape: 'gorra', hex: '000080', description: 'Gorra de algodón con visera curva y cierre regulable', colors: ['Azul marino', 'Morado Mostrador', 'Verde limón'] },
  { name: 'Mochila escolar 20 L', sku: 'MOCH-20', price: 89.0, stock: 25, brand: 'Andina Textil', category: 'Ropa', shape: 'mochila', hex: '2b5f9e', description: 'Mochila resistente al agua con bolsillo para laptop' },
  { name: 'Taza cerámica Mostrador', sku: 'TAZA-M', price: 25.0, stock: 4, brand: 'Andina Textil', category: 'Ropa', shape: 'taza', hex: '28156c', description: 'Taza de 350 ml para tu café de la mañana' },
];

/** Every product of the demo's catalogue (Drive's demo packshots are drawn from them, decision 0056). */
export const demoProducts: readonly DemoProduct[] = [...drinks, ...groceries, ...sweets, ...care, ...clothes];

/**
 * The origin the seed writes into picture links (imageUrl must be an absolute link). The shop
 * and the staff screens show any link under /api/product-images/ from their own origin, so the
 * demo's pictures work on any host and port.
 */
const DEMO_ORIGIN = 'http://localhost:3000';

export async function seedDemoCatalog(db: Db, companyId: string, publicUrl = DEMO_ORIGIN): Promise<void> {
  const c = companyId;
  const idsOf = async (table: string) =>
    new Map((await rowsOf<{ id: string; name: string }>(db, sql`select id, name from ${sql.identifier(table)} where company_id = ${c}`)).map((r) => [r.name, r.id]));
  const ensure = async (table: string, name: string, extra: Row = {}) => {
    const found = (await idsOf(table)).get(name);
    if (found) return found;
    const cols = ['company_id', 'name', ...Object.keys(extra).map((k) => k)];
    const [row] = await rowsOf<{ id: string }>(
      db,
      sql`insert into ${sql.identifier(table)} (${sql.raw(cols.join(', '))}) values (${sql.join([sql`${c}`, sql`${name}`, ...Object.values(extra).map((v) => sql`${v}`)], sql`, `)}) returning id`,
    );
    return row.id;
  };
  await ensure('brands', 'Andina Textil', { description: 'Ropa y accesorios hechos en Perú' });
  await ensure('categories', 'Ropa', { description: 'Polos, zapatillas y accesorios' });
  const brands = await idsOf('brands');
  const categories = await idsOf('categories');
  const colors = await idsOf('colors');
  const url = (shape: ProductShape, hex: string) => `${publicUrl}${productImagePath(shape, hex)}`;

  // the contract's example products get pictures too
  for (const [sku, shape, hex] of [
    ['IK-1500', 'botella', 'f2c200'],
    ['GL-EVAP-400', 'lata', '1c57a5'],
    ['SUB-30', 'caja', '8b2c1d'],
  ] as const) {
    await db.execute(sql`update products set image_url = ${url(shape, hex)} where company_id = ${c} and sku = ${sku}`);
  }

  let seq = 0;
  for (const p of [...drinks, ...groceries, ...sweets, ...care, ...clothes]) {
    const variants =
      p.sizes || p.colors
        ? (p.sizes ?? ['Única']).flatMap((size, si) =>
            (p.colors ?? ['']).map((color, ci) => ({
              // a SKU is ASCII (zSku): «Única» → UNICA
              sku: `${p.sku}-${size}${color ? `-${ci + 1}` : ''}`.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase(),
              ...(p.sizes ? { size } : {}),
              ...(color && colors.get(color) ? { colorId: colors.get(color) } : {}),
              // a few sold out, a few nearly: the shop shows both
              stock: (si * 3 + ci * 5 + seq) % 7 === 0 ? 0 : 2 + ((si * 7 + ci * 3 + seq) % 12),
            })),
          )
        : undefined;
    seq++;
    await db.execute(sql`insert into products (company_id, name, sku, price, stock, description, image_url, brand_id, category_id, color_id, variants)
      values (${c}, ${p.name}, ${p.sku}, ${p.price}, ${p.stock}, ${p.description}, ${url(p.shape, p.hex)}, ${brands.get(p.brand) ?? null},
              ${categories.get(p.category) ?? null}, ${p.colors?.[0] ? (colors.get(p.colors[0]) ?? null) : null}, ${variants ? JSON.stringify(variants) : null}::jsonb)
      on conflict do nothing`);
  }

  // two published catalogues: the general one (default) shows everything, the week's offers a few
  const products = await rowsOf<{ id: string; sku: string; name: string; price: number; image_url: string | null; variants: Array<{ sku: string; size?: string }> | null }>(
    db,
    sql`select id, sku, name, price, image_url, variants from products where company_id = ${c} order by name`,
  );
  const all = products.map((p) => p.id);
  const offers = products.filter((_, i) => i % 4 === 1).map((p) => p.id);
  await db.execute(sql`update catalogs set product_ids = ${JSON.stringify(all)}::jsonb, is_default = false where company_id = ${c}`);
  await db.execute(sql`update catalogs set is_default = true, product_ids = ${JSON.stringify(all)}::jsonb where company_id = ${c} and name = 'Catálogo general'`);
  await db.execute(sql`update catalogs set product_ids = ${JSON.stringify(offers)}::jsonb where company_id = ${c} and name = 'Ofertas de la semana'`);
  const [general] = await rowsOf<{ id: string }>(db, sql`select id from catalogs where company_id = ${c} and name = 'Catálogo general'`);

  // orders in every status, over the last days
  const people = [
    ['María Quispe', '51987654321', 'Av. Primavera 1234, dpto. 301', 'Surco'],
    ['José Flores', '51912345678', 'Jr. Junín 456', 'Cercado de Lima'],
    ['Lucía Sánchez', '51955544433', 'Calle Los Pinos 789', 'Miraflores'],
    ['Carlos Mamani', '51944433322', 'Av. Arequipa 2450', 'Lince'],
    ['Rosa Huamán', '51933322211', 'Mz. B Lt. 12, Urb. Santa Rosa', 'San Juan de Lurigancho'],
    ['Diego Chávez', '51922211100', 'Av. La Marina 1800', 'San Miguel'],
  ];
  const statuses = ['created', 'created', 'created', 'paid', 'paid', 'shipped', 'shipped', 'done', 'done', 'done', 'done', 'cancelled'];
  const pick = (i: number, n: number) => products[(i * 7 + n * 5) % products.length];
  for (const [i, status] of statuses.entries()) {
    const [name, telefono, address, city] = people[i % people.length];
    const lines = [0, 1, 2].slice(0, 1 + (i % 3)).map((n) => {
      const p = pick(i, n);
      const v = p.variants?.[(i + n) % p.variants.length];
      const quantity = 1 + ((i + n) % 3);
      return {
        productId: p.id,
        sku: v?.sku ?? p.sku,
        name: p.name,
        ...(v?.size ? { size: v.size } : {}),
        ...(p.image_url ? { imageUrl: p.image_url } : {}),
        quantity,
        unitPrice: Number(p.price),
        total: Math.round(Number(p.price) * quantity * 100) / 100,
      };
    });
    const total = Math.round(lines.reduce((n, l) => n + l.total, 0) * 100) / 100;
    const pickup = i % 4 === 3;
    const shippment = pickup ? { method: 'pickup' } : { method: 'delivery', address, city };
    const at = new Date(Date.now() - (statuses.length - i) * 9 * 3_600_000);
    const code = `P-D${String(100 + i).padStart(5, '0').slice(-5)}`;
    await db.execute(sql`insert into orders (company_id, code, status, source, catalog_id, customer_name, telefono, customer, shippment, items, subtotal, total, currency, created_at, updated_at)
      values (${c}, ${code}, ${status}, ${i % 5 === 4 ? 'whatsapp' : 'catalogo'}, ${general?.id ?? null}, ${name}, ${telefono},
              ${JSON.stringify({ name, telefono })}::jsonb, ${JSON.stringify(shippment)}::jsonb, ${JSON.stringify(lines)}::jsonb, ${total}, ${total}, 'PEN',
              ${at.toISOString()}, ${new Date(at.getTime() + (status === 'created' ? 0 : 3_600_000)).toISOString()})
      on conflict do nothing`);
  }
}
