import { type ChatProductsContent, productPrice } from '@mostrador/contract';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { safeMediaUrl } from '../lib/media';

export const productCardTexts = {
  open: 'Ver en el catálogo',
  listTitle: (n: number) => `${n} productos`,
} as const;

type Item = ChatProductsContent['items'][number];

function ProductImage({ item, size }: { item: Item; size: number | 'wide' }) {
  const safe = safeMediaUrl(item.image);
  const width = size === 'wide' ? '100%' : size;
  const height = size === 'wide' ? 170 : size;
  if (!safe) {
    return (
      <Box sx={{ width, height, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', borderRadius: 1, flex: 'none' }}>
        <Inventory2OutlinedIcon color="disabled" />
      </Box>
    );
  }
  return <Box component="img" src={safe} alt={item.name} loading="lazy" sx={{ width, height, objectFit: 'cover', borderRadius: size === 'wide' ? 0 : 1, display: 'block', flex: 'none', bgcolor: 'action.hover' }} />;
}

function ProductLink({ href, children }: { href?: string; children: React.ReactNode }) {
  const safe = safeMediaUrl(href);
  if (!safe) return <>{children}</>;
  return (
    <Link href={safe} target="_blank" rel="noopener noreferrer" underline="hover" color="inherit">
      {children}
    </Link>
  );
}

/** One product sent from the chat (WhatsApp `product`, one Messenger card): its image, name, variant (the size and colour chosen, decision 0091) and price. */
function ProductCard({ item }: { item: Item }) {
  return (
    <Box data-testid="product-card" sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, overflow: 'hidden', bgcolor: 'background.paper', width: 260, maxWidth: '100%' }}>
      <ProductImage item={item} size="wide" />
      <Box sx={{ p: 1, display: 'grid', gap: 0.25 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          <ProductLink href={item.link}>{item.name}</ProductLink>
        </Typography>
        {item.variant && (
          <Typography variant="caption" color={item.variantSku ? 'text.primary' : 'text.secondary'} data-testid="product-variant-label">
            {item.variant}
          </Typography>
        )}
        <Typography variant="body2" sx={{ fontWeight: 600, color: 'primary.main' }} data-testid="product-price">
          {productPrice(item.price, item.currency)}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          SKU {item.variantSku ?? item.sku}
        </Typography>
        {safeMediaUrl(item.link) && (
          <Link href={safeMediaUrl(item.link)} target="_blank" rel="noopener noreferrer" variant="caption">
            {productCardTexts.open}
          </Link>
        )}
      </Box>
    </Box>
  );
}

/** A product list (WhatsApp `product_list`, a carousel): a compact list, one line per product. */
function ProductList({ products }: { products: ChatProductsContent }) {
  return (
    <Box data-testid="product-list" sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, bgcolor: 'background.paper', width: 320, maxWidth: '100%', overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, px: 1, py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
        <StorefrontOutlinedIcon fontSize="small" color="primary" />
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {products.header || productCardTexts.listTitle(products.items.length)}
        </Typography>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, maxHeight: 320, overflowY: 'auto' }}>
        {products.items.map((item) => (
          <Box component="li" key={item.id} data-testid="product-line" sx={{ display: 'flex', gap: 1, alignItems: 'center', px: 1, py: 0.5, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
            <ProductImage item={item} size={36} />
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere', lineHeight: 1.3 }}>
                <ProductLink href={item.link}>{item.name}</ProductLink>
              </Typography>
              {(item.variant || item.category) && (
                <Typography variant="caption" color="text.secondary">
                  {[item.variant, item.category].filter(Boolean).join(' · ')}
                </Typography>
              )}
            </Box>
            <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
              {productPrice(item.price, item.currency)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** The products a message carries (decision 0085): one as a card, several as a compact list. */
export function ProductCards({ products }: { products: ChatProductsContent }) {
  const [first] = products.items;
  if (!first) return null;
  return products.items.length === 1 ? <ProductCard item={first} /> : <ProductList products={products} />;
}
