import { describe, expect, it } from 'vitest';
import { buildIndex } from '../src/modules/assistant/catalogue-index.js';
import { embeddedDraft } from '../src/modules/assistant/draft.js';
import { matchIndex } from '../src/modules/assistant/matcher.js';
import { validateDraft } from '../src/modules/assistant/validator.js';

/**
 * The matcher, the embedded draft and the validator on a small catalogue in memory (decision
 * 0087): what a typo may and may not turn into, colours never read as products, quantities,
 * sizes asked that the catalogue lacks, and what the validator lets through.
 */
const AZUL = '00000000-0000-4000-8000-00000000c001';
const ROJO = '00000000-0000-4000-8000-00000000c002';
const index = buildIndex(
  'v1',
  [
    { id: 'p1', name: 'Polo algodón pima clásico', sku: 'POLO-PIMA', price: 49.9, stock: 0, variants: [
      { sku: 'POLO-PIMA-M-1', size: 'M', colorId: AZUL, stock: 4 },
      { sku: 'POLO-PIMA-M-2', size: 'M', colorId: ROJO, stock: 0 },
      { sku: 'POLO-PIMA-L-1', size: 'L', colorId: AZUL, stock: 9, price: 52 },
    ] },
    { id: 'p2', name: 'Leche Gloria azul 400 g (pack x6)', sku: 'GL-PACK6', price: 23.5, stock: 40, variants: null },
    { id: 'p3', name: 'Inca Kola 500 ml', sku: 'IK-500', price: 3.5, stock: 120, variants: null },
    { id: 'p4', name: 'Inca Kola 1.5 L', sku: 'IK-1500', price: 7.5, stock: 0, variants: null },
    { id: 'p5', name: 'Red Bull 250 ml', sku: 'RB-250', price: 6.9, stock: 30, variants: null },
  ],
  [
    { id: AZUL, name: 'Azul marino' },
    { id: ROJO, name: 'Rojo carmesí' },
  ],
);
const match = (text: string) => matchIndex(index, text, 'PEN');
const skus = (text: string) => match(text).map((p) => p.sku);

describe('matcher', () => {
  it('a common word is never a typo of a product («solo» is not «polo»)', () => {
    expect(skus('solo quería saber si atienden hoy')).toEqual([]);
    expect(skus('hola buenas, aceptan yape?')).toEqual([]);
  });

  it('a colour is a colour, not the product that has it in its name', () => {
    expect(skus('polo pima azul talla M')).toEqual(['POLO-PIMA-M-1']);
    expect(skus('leche gloria azul')).toEqual(['GL-PACK6']);
  });

  it('the more precise reading wins, two words written as one are found', () => {
    expect(skus('inca kola de 500')).toEqual(['IK-500']);
    expect(skus('tienen inca kola?')).toEqual(['IK-500', 'IK-1500']);
    expect(skus('un redbull')).toEqual(['RB-250']);
  });

  it('an out-of-stock variant is reported as such; a variant’s own price is kept', () => {
    expect(match('polo pima rojo talla M')).toEqual([expect.objectContaining({ sku: 'POLO-PIMA-M-2', stock: 0, available: false, variant: { sku: 'POLO-PIMA-M-2', size: 'M', color: 'Rojo carmesí' } })]);
    expect(match('polo pima L')[0]).toMatchObject({ sku: 'POLO-PIMA-L-1', price: 52, available: true });
  });

  it('no size asked: the product with its stock summed and what is in stock', () => {
    expect(match('polo pima')).toEqual([expect.objectContaining({ sku: 'POLO-PIMA', stock: 13, available: true, options: { sizes: ['M', 'L'], colors: ['Azul marino'] } })]);
  });

  it('a size the product does not have is not offered as another', () => {
    const [p] = match('polo pima talla XXL');
    expect(p).toMatchObject({ sku: 'POLO-PIMA', available: false, stock: 0 });
    expect(embeddedDraft([p], [], {})).toContain('no lo tenemos en talla XXL');
  });

  it('quantities before or after the product', () => {
    expect(match('quiero 3 inca kola 500').map((p) => p.quantity)).toEqual([3]);
    expect(match('red bull x4').map((p) => p.quantity)).toEqual([4]);
    expect(match('dos red bull').map((p) => p.quantity)).toEqual([2]);
  });

  it('the embedded draft never offers the price of what is sold out', () => {
    const draft = embeddedDraft(match('inca kola de 1.5'), [], { nombre: 'Rosa' });
    expect(draft).toContain('¡Hola, Rosa!');
    expect(draft).toContain('agotado');
    expect(draft).not.toContain('7.50');
  });
});

describe('validator', () => {
  const products = match('2 inca kola 500');
  const ctx = { index, products, quickReplyTexts: ['El envío cuesta S/ 8 y es gratis desde S/ 120'] };
  it('lets through the catalogue’s prices (each, times the quantity), the quick replies’ amounts and real SKUs', () => {
    expect(validateDraft('Inca Kola 500 ml a S/ 3.50 c/u, S/ 7.00 por las dos; envío S/ 8. Código IK-500.', ctx)).toEqual([]);
    expect(validateDraft('Te sale en 3,50 soles cada una', ctx)).toEqual([]);
    expect(validateDraft('La botella de 1.5L y la de 500ML', ctx)).toEqual([]);
  });

  it('refuses an invented SKU, price or stock', () => {
    expect(validateDraft('Te separo el IK-600', ctx)).toEqual([{ kind: 'sku', value: 'IK-600' }]);
    expect(validateDraft('Está a S/ 3.20', ctx)).toEqual([{ kind: 'price', value: 'S/ 3.20' }]);
    expect(validateDraft('quedan 7 unidades', ctx).map((p) => p.kind)).toEqual(['stock', 'stock']);
    expect(validateDraft('quedan 120', ctx)).toEqual([]);
  });
});

describe('several products in one message', () => {
  const two = buildIndex(
    'v2',
    [
      { id: 'p1', name: 'Polo algodón pima clásico', sku: 'POLO-PIMA', price: 49.9, stock: 0, variants: [
        { sku: 'POLO-PIMA-M-1', size: 'M', colorId: AZUL, stock: 4 },
        { sku: 'POLO-PIMA-L-1', size: 'L', colorId: AZUL, stock: 2 },
      ] },
      { id: 'p2', name: 'Zapatillas urbanas Andes', sku: 'ZAP-ANDES', price: 149, stock: 0, variants: [
        { sku: 'ZAP-ANDES-40-1', size: '40', colorId: ROJO, stock: 3 },
        { sku: 'ZAP-ANDES-41-1', size: '41', colorId: ROJO, stock: 1 },
      ] },
    ],
    [
      { id: AZUL, name: 'Azul marino' },
      { id: ROJO, name: 'Rojo carmesí' },
    ],
  );
  it('a colour and a size are the nearest product’s, not every product’s', () => {
    const found = matchIndex(two, 'Hola! tienen el polo pima en talla M color azul? Y las zapatillas andes en 40', 'PEN');
    expect(found.map((p) => [p.sku, p.available])).toEqual([
      ['POLO-PIMA-M-1', true],
      ['ZAP-ANDES-40-1', true],
    ]);
  });
});

describe('what else the message says', () => {
  const shop = buildIndex(
    'v3',
    [
      { id: 'k1', name: 'Inca Kola 500 ml', sku: 'IK-500', price: 3.5, stock: 50, variants: null, description: 'La bebida de sabor nacional, botella personal', category: 'Bebidas' },
      { id: 'k2', name: 'Inca Kola 1.5 L', sku: 'IK-1500', price: 7.5, stock: 50, variants: null, description: 'Gaseosa sabor original, botella de 1.5 litros', category: 'Bebidas' },
      { id: 'k3', name: 'Coca-Cola 1.5 L', sku: 'CC-1500', price: 7.9, stock: 50, variants: null, description: 'Gaseosa sabor original, botella familiar', category: 'Bebidas' },
      { id: 'k4', name: 'Guaraná Backus 3 L', sku: 'GB-3000', price: 9.5, stock: 0, variants: null, description: 'Gaseosa sabor guaraná', category: 'Bebidas' },
      { id: 'k5', name: 'Leche Gloria evaporada 400 g', sku: 'GL-EVAP-400', price: 4.2, stock: 300, variants: null, description: 'Lata azul', category: 'Abarrotes' },
      { id: 'k6', name: 'Leche Gloria azul 400 g (pack x6)', sku: 'GL-PACK6', price: 23.5, stock: 40, variants: null, description: 'Seis latas de leche evaporada', category: 'Abarrotes' },
      { id: 'k7', name: 'Polo algodón pima clásico', sku: 'POLO-PIMA', price: 49.9, stock: 9, variants: null, description: 'Polo de algodón pima peruano', category: 'Ropa' },
      { id: 'k8', name: 'Polo deportivo dry-fit', sku: 'POLO-DRY', price: 39.9, stock: 9, variants: null, description: 'Tela que respira', category: 'Ropa' },
      { id: 'k9', name: 'Princesa chocolate 30 g', sku: 'PRI-30', price: 1.5, stock: 100, variants: null, description: 'Chocolate con leche relleno', category: 'Golosinas' },
      { id: 'k10', name: 'Sublime almendras 30 g', sku: 'SUB-ALM', price: 2.5, stock: 100, variants: null, description: 'El chocolate de siempre, con almendras', category: 'Golosinas' },
      { id: 'k11', name: 'Cerveza Pilsen lata 355 ml', sku: 'PL-355', price: 4.8, stock: 100, variants: null, description: 'Cerveza rubia en lata', category: 'Bebidas' },
    ],
    [{ id: AZUL, name: 'Azul marino' }],
  );
  const found = (text: string) => matchIndex(shop, text, 'PEN').map((p) => p.sku);

  it('a measure in words is the product of that measure', () => {
    expect(found('hay incakola de medio litro?')).toEqual(['IK-500']);
    expect(found('inca kola de litro y medio')).toEqual(['IK-1500']);
  });

  it('a word of one description, or a price, tells two products apart', () => {
    expect(found('tienes gaseosa inca kola personal')).toEqual(['IK-500']);
    expect(found('inca kola').sort()).toEqual(['IK-1500', 'IK-500']);
    expect(found('el polo de 49.90 lo tienen en L?')).toEqual(['POLO-PIMA']);
    expect(found('el polo de 39,90')).toEqual(['POLO-DRY']);
  });

  it('the unit, not its pack, when one unit is asked; both when nothing says which', () => {
    expect(found('tiene leche evaporada gloria la lata azul?')).toEqual(['GL-EVAP-400']);
    expect(found('hay leche gloria?').sort()).toEqual(['GL-EVAP-400', 'GL-PACK6']);
    expect(found('una caja de leche gloria azul')).toEqual(['GL-PACK6']);
  });

  it('a product already the customer’s is not offered again', () => {
    expect(found('gracias por el polo, me quedó perfecto')).toEqual([]);
    expect(found('quiero cambiar la talla de mi polo')).toEqual([]);
    expect(found('me llegó la inca kola caliente')).toEqual([]);
    // the thanks is for something else; the product is asked
    expect(found('gracias por la info, quiero dos polos pima')).toEqual(['POLO-PIMA']);
    expect(found('el polo me llegó bien, ahora quiero una coca cola')).toEqual(['CC-1500']);
  });

  it('a kind asked is the products of that kind in stock; a product named by its kind word is itself', () => {
    expect(found('que gaseosas tienen?')).toEqual(['IK-1500', 'CC-1500']);
    expect(found('tienen chocolates?').sort()).toEqual(['PRI-30', 'SUB-ALM']);
    expect(found('chocolate princesa a como')).toEqual(['PRI-30']);
    expect(found('cuanto la cerveza pilsen en lata')).toEqual(['PL-355']);
    expect(found('aceptan yape?')).toEqual([]);
  });
});
