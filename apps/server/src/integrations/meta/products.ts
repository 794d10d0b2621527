import { type ChatProductsContent, MESSENGER_CARDS_MAX, productPrice, WHATSAPP_PRODUCT_SECTIONS_MAX } from '@mostrador/contract';

/**
 * Product messages on Meta's channels (issue 30, decision 0085), built from what the chat
 * message keeps (`content.products`):
 *
 * - WhatsApp Cloud API, one product: `type: interactive`, `interactive: {type:'product', body?,
 *   action:{catalog_id, product_retailer_id}}`; several: `type:'product_list'` with a text header
 *   (≤60 characters, required), a body (≤1024, required) and `action:{catalog_id, sections:[{title
 *   (≤24), product_items:[{product_retailer_id}]}]}` — at most 10 sections and 30 products in all.
 *   Sections are the products' categories; past the tenth, the rest fold into the tenth («Otros»).
 * - Messenger and Instagram: a generic template (`attachment: {type:'template', payload:
 *   {template_type:'generic', elements}}`), at most 10 elements, each with a title (≤80), a
 *   subtitle (≤80: its price), its image and one web_url button to the product.
 */

export const WHATSAPP_HEADER_MAX = 60;
export const WHATSAPP_SECTION_TITLE_MAX = 24;
export const MESSENGER_TITLE_MAX = 80;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The sections of a WhatsApp product list: one per category (in the order chosen), never more than 10. */
export function productSections(products: ChatProductsContent): Array<{ title: string; product_items: Array<{ product_retailer_id: string }> }> {
  const byTitle = new Map<string, string[]>();
  const listed = new Set<string>();
  for (const item of products.items) {
    // two variants of one product are one item of Meta's catalogue: listed once
    if (listed.has(item.sku)) continue;
    listed.add(item.sku);
    const title = cut(item.category?.trim() || 'Productos', WHATSAPP_SECTION_TITLE_MAX);
    byTitle.set(title, [...(byTitle.get(title) ?? []), item.sku]);
  }
  const sections = [...byTitle.entries()].map(([title, skus]) => ({ title, skus }));
  if (sections.length > WHATSAPP_PRODUCT_SECTIONS_MAX) {
    const kept = sections.slice(0, WHATSAPP_PRODUCT_SECTIONS_MAX - 1);
    const rest = sections.slice(WHATSAPP_PRODUCT_SECTIONS_MAX - 1).flatMap((s) => s.skus);
    sections.splice(0, sections.length, ...kept, { title: 'Otros', skus: rest });
  }
  return sections.map((s) => ({ title: s.title, product_items: s.skus.map((sku) => ({ product_retailer_id: sku })) }));
}

/** The header a product list shows when the agent wrote none. */
export const defaultHeader = (n: number) => `Te compartimos ${n} productos`;

export const WHATSAPP_BODY_MAX = 1024;

/**
 * The variants chosen, said in the body (decision 0091): Meta's catalogue holds the products, not
 * their variants (decision 0086), so the customer reads which size and colour under the product.
 */
export function variantLines(products: ChatProductsContent): string {
  const lines = products.items.filter((i) => i.variantSku).map((i) => `• ${i.name}: ${i.variant} — ${productPrice(i.price, i.currency)}`);
  return lines.length ? `${lines.length === 1 ? 'Variante elegida' : 'Variantes elegidas'}:\n${lines.join('\n')}` : '';
}

/** The `interactive` object of a WhatsApp product message. */
export function whatsappProductInteractive(products: ChatProductsContent, text?: string): object {
  const variants = variantLines(products);
  const body = cut([text?.trim(), variants].filter(Boolean).join('\n\n'), WHATSAPP_BODY_MAX) || undefined;
  const catalog_id = products.catalogId;
  const [first] = products.items;
  if (new Set(products.items.map((i) => i.sku)).size === 1 && first) {
    return { type: 'product', ...(body ? { body: { text: body } } : {}), action: { catalog_id, product_retailer_id: first.sku } };
  }
  const header = cut(products.header?.trim() || defaultHeader(new Set(products.items.map((i) => i.sku)).size), WHATSAPP_HEADER_MAX);
  return {
    type: 'product_list',
    header: { type: 'text', text: header },
    body: { text: body || 'Toca «Ver productos» para verlos y añadirlos a tu carrito' },
    action: { catalog_id, sections: productSections(products) },
  };
}

/** The `message` of a Messenger/Instagram product carousel. */
export function messengerProductMessage(products: ChatProductsContent): object {
  return {
    attachment: {
      type: 'template',
      payload: {
        template_type: 'generic',
        elements: products.items.slice(0, MESSENGER_CARDS_MAX).map((item) => ({
          // a variant chosen is named in the title (decision 0091): «Polo básico — Talla M · Rojo»
          title: cut(item.variantSku ? `${item.name} — ${item.variant}` : item.name, MESSENGER_TITLE_MAX),
          subtitle: cut([productPrice(item.price, item.currency), item.variant].filter(Boolean).join(' · '), MESSENGER_TITLE_MAX),
          ...(item.image ? { image_url: item.image } : {}),
          ...(item.link
            ? { default_action: { type: 'web_url', url: item.link }, buttons: [{ type: 'web_url', url: item.link, title: 'Ver producto' }] }
            : {}),
        })),
      },
    },
  };
}
