import type { ChatMessage, ReplySuggestionOut, SuggestedProduct } from '@mostrador/contract';
import AutoAwesomeOutlinedIcon from '@mui/icons-material/AutoAwesomeOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMoney, localeOfCountry } from '../../../lib/money';
import type { CountryCode } from '@mostrador/contract';
import { currentMembership, useSession } from '../../../lib/session';
import { offerComposerDraft } from '../lib/composer-draft';
import { suggestReply } from '../lib/reply-suggestion';

/**
 * «Sugerir respuesta» on a customer's text message (issue 30, decision 0087): the products of the
 * catalogue it mentions (name, variant, price, stock) and a draft reply; «Usar respuesta» puts
 * the draft in the chat's composer (lib/composer-draft.ts), «Descartar» closes. Nothing is sent.
 */
export const suggestionTexts = {
  suggest: 'Sugerir respuesta',
  title: 'Respuesta sugerida',
  loading: 'Buscando productos del catálogo…',
  empty: 'No encontré productos del catálogo en este mensaje',
  error: 'No se pudo sugerir una respuesta.',
  retry: 'Reintentar',
  use: 'Usar respuesta',
  discard: 'Descartar',
  products: 'Productos',
  draft: 'Borrador',
  soldOut: 'Agotado',
  inStock: (n: number) => (n === 1 ? '1 en stock' : `${n} en stock`),
  engine: { embedded: 'Motor integrado', llm: 'Modelo de la empresa' } as const,
  used: 'Listo: la respuesta quedó como borrador de este chat, para que la revises y la envíes.',
};

/** Whether a message can be answered with a suggestion: the customer's, a text, not deleted. */
export const canSuggest = (message: ChatMessage) => message.direction === 'in' && message.kind === 'text' && message.isActive && !!message.text?.trim();

function variantText(p: SuggestedProduct) {
  return [p.variant?.size ? `Talla ${p.variant.size}` : '', p.variant?.color ?? ''].filter(Boolean).join(' · ');
}

function ProductRow({ product, locale }: { product: SuggestedProduct; locale: string }) {
  const variant = variantText(product);
  const options = product.options && !product.variant ? [product.options.sizes.length ? `Tallas ${product.options.sizes.join(', ')}` : '', product.options.colors.join(', ')].filter(Boolean).join(' · ') : '';
  return (
    <Box component="li" data-testid="suggested-product" sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1, py: 0.5, borderTop: 1, borderColor: 'divider', '&:first-of-type': { borderTop: 0 } }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {product.quantity ? `${product.quantity} × ` : ''}
          {product.name}
        </Typography>
        {(variant || options) && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {variant || options}
          </Typography>
        )}
      </Box>
      <Box sx={{ textAlign: 'right', flexShrink: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, color: product.available ? 'text.primary' : 'text.disabled', textDecoration: product.available ? 'none' : 'line-through' }}>
          {formatMoney(product.price, { currency: product.currency, locale })}
        </Typography>
        {product.available ? (
          <Typography variant="caption" color="success.main">
            {suggestionTexts.inStock(product.stock)}
          </Typography>
        ) : (
          <Chip size="small" color="default" label={suggestionTexts.soldOut} sx={{ height: 18, fontSize: '0.68rem' }} />
        )}
      </Box>
    </Box>
  );
}

export function ReplySuggestionPanel({ message, onClose }: { message: ChatMessage; onClose: () => void }) {
  const session = useSession();
  const country = (currentMembership(session)?.company?.country ?? 'PE') as CountryCode;
  const locale = localeOfCountry[country] ?? 'es-PE';
  const [used, setUsed] = useState(false);
  const query = useQuery<ReplySuggestionOut>({
    queryKey: ['reply-suggestion', message.chatId, message._id],
    queryFn: () => suggestReply(message.chatId, message._id),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const data = query.data;
  return (
    <Box
      role="region"
      aria-label={suggestionTexts.title}
      data-testid="reply-suggestion"
      sx={{ mt: 1, p: 1.25, borderRadius: 2, border: 1, borderColor: 'primary.light', bgcolor: '#F7F5FD', display: 'grid', gap: 1, width: { xs: '100%', sm: 360 }, maxWidth: '100%' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap' }}>
        <AutoAwesomeOutlinedIcon sx={{ fontSize: 16, color: 'primary.main' }} />
        <Typography variant="subtitle2" sx={{ fontWeight: 700, flexGrow: 1 }}>
          {suggestionTexts.title}
        </Typography>
        {data && <Chip size="small" variant="outlined" label={suggestionTexts.engine[data.engine]} data-testid="suggestion-engine" sx={{ height: 20, fontSize: '0.7rem' }} />}
      </Box>
      {query.isPending && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }} data-testid="suggestion-loading">
          <CircularProgress size={16} />
          <Typography variant="body2">{suggestionTexts.loading}</Typography>
        </Box>
      )}
      {query.isError && (
        <Alert
          severity="error"
          sx={{ py: 0 }}
          action={
            <Button color="inherit" size="small" onClick={() => query.refetch()}>
              {suggestionTexts.retry}
            </Button>
          }
        >
          {query.error instanceof Error && query.error.message ? `${suggestionTexts.error} ${query.error.message}` : suggestionTexts.error}
        </Alert>
      )}
      {data && (
        <>
          {data.fallbackReason && (
            <Typography variant="caption" color="warning.dark" data-testid="suggestion-fallback">
              {data.fallbackReason}
            </Typography>
          )}
          {data.products.length ? (
            <Box component="ul" aria-label={suggestionTexts.products} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {data.products.map((p) => (
                <ProductRow key={`${p.productId}-${p.sku}`} product={p} locale={locale} />
              ))}
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary" data-testid="suggestion-empty">
              {suggestionTexts.empty}
            </Typography>
          )}
          <Box>
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
              {suggestionTexts.draft}
            </Typography>
            <Typography
              variant="body2"
              data-testid="suggestion-draft"
              sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', bgcolor: 'background.paper', border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1 }}
            >
              {data.draft}
            </Typography>
          </Box>
          {used && (
            <Typography variant="caption" color="success.main" role="status">
              {suggestionTexts.used}
            </Typography>
          )}
        </>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" onClick={onClose}>
          {suggestionTexts.discard}
        </Button>
        <Button
          size="small"
          variant="contained"
          disabled={!data?.draft}
          onClick={() => {
            if (!data) return;
            offerComposerDraft(message.chatId, data.draft);
            setUsed(true);
          }}
        >
          {suggestionTexts.use}
        </Button>
      </Box>
    </Box>
  );
}

/** The message's «Sugerir respuesta» button and, once pressed, its panel. */
export function ReplySuggestion({ message }: { message: ChatMessage }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {!open && (
        <Box className="message-actions" sx={{ position: 'absolute', top: 2, right: 2 }}>
          <Tooltip title={suggestionTexts.suggest}>
            <IconButton size="small" aria-label={suggestionTexts.suggest} onClick={() => setOpen(true)} sx={{ p: 0.5, color: 'primary.main' }}>
              <AutoAwesomeOutlinedIcon sx={{ fontSize: 18 }} />
            </IconButton>
          </Tooltip>
        </Box>
      )}
      {open && <ReplySuggestionPanel message={message} onClose={() => setOpen(false)} />}
    </>
  );
}
