import { type ChatMessage, type ContactLead, mapLinkOf, type MessageContent, unsupportedReasonOf } from '@mostrador/contract';
import CampaignOutlinedIcon from '@mui/icons-material/CampaignOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import LinkIcon from '@mui/icons-material/Link';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import PersonOutlineIcon from '@mui/icons-material/PersonOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import ShoppingCartOutlinedIcon from '@mui/icons-material/ShoppingCartOutlined';
import TouchAppOutlinedIcon from '@mui/icons-material/TouchAppOutlined';
import AutoStoriesOutlinedIcon from '@mui/icons-material/AutoStoriesOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePermissions } from '../../../lib/permissions';
import { chatApi } from '../api';
import { requestCreateOrder } from '../lib/create-order-event';
import { safeMediaUrl } from '../lib/media';
import { kindNames, kindTexts } from '../texts';

/**
 * How the thread shows what a message carries besides text and media (decision 0020): a
 * location as a map link, contact cards with "Agregar como lead", a catalogue order as a
 * table with its total, the ad a customer came from, a quoted reply, a tap on a button, an
 * Instagram story, and a message the provider could not deliver with its reason.
 */

const card = {
  display: 'grid',
  gap: 0.5,
  px: 1.25,
  py: 1,
  borderRadius: 1.5,
  border: 1,
  borderColor: 'divider',
  bgcolor: 'background.paper',
  minWidth: 0,
  maxWidth: 320,
} as const;

const money = (amount: number, currency?: string) => {
  try {
    return new Intl.NumberFormat('es-PE', { style: 'currency', currency: currency || 'PEN' }).format(amount);
  } catch {
    return `${currency ?? ''} ${amount.toFixed(2)}`.trim();
  }
};

function ExternalLink({ href, children }: { href?: string; children: React.ReactNode }) {
  const safe = safeMediaUrl(href);
  if (!safe) return null;
  return (
    <Link href={safe} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
      {children}
    </Link>
  );
}

export function LocationCard({ location }: { location: NonNullable<MessageContent['location']> }) {
  return (
    <Box sx={card} data-testid="location-card">
      <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'flex-start' }}>
        <PlaceOutlinedIcon fontSize="small" sx={{ color: 'error.main', mt: 0.25 }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {location.name || kindNames.location}
          </Typography>
          {location.address && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0 }}>
              {location.address}
            </Typography>
          )}
        </Box>
      </Box>
      <ExternalLink href={mapLinkOf(location)}>{kindTexts.openMap}</ExternalLink>
    </Box>
  );
}

function ContactCard({ message, index, contact }: { message: ChatMessage; index: number; contact: NonNullable<MessageContent['contacts']>[number] }) {
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'failed' } | { status: 'done'; lead: ContactLead }>({ status: 'idle' });
  const add = async () => {
    setState({ status: 'loading' });
    try {
      setState({ status: 'done', lead: await chatApi.contactLead(message.chatId, message._id, index) });
    } catch {
      setState({ status: 'failed' });
    }
  };
  return (
    <Box sx={card} data-testid="contact-card">
      <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'center' }}>
        <PersonOutlineIcon fontSize="small" sx={{ color: 'primary.main' }} />
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {contact.name}
        </Typography>
      </Box>
      {contact.org && (
        <Typography variant="caption" color="text.secondary">
          {contact.org}
        </Typography>
      )}
      {contact.phones.map((p) => (
        <Link key={p.phone} href={`tel:${p.phone.replace(/[^\d+]/g, '')}`} variant="body2">
          {p.phone}
        </Link>
      ))}
      {contact.emails?.map((e) => (
        <Typography key={e} variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {e}
        </Typography>
      ))}
      {contact.phones.length > 0 &&
        (state.status === 'done' ? (
          <Button
            component={RouterLink}
            to={`/lead/${state.lead.status ?? 'todos'}?q=${encodeURIComponent(state.lead.telefono)}`}
            size="small"
            variant="outlined"
            startIcon={<PersonOutlineIcon />}
            sx={{ justifySelf: 'start' }}
          >
            {kindTexts.openLead}: {state.lead.name}
          </Button>
        ) : (
          <Button size="small" variant="outlined" onClick={add} disabled={state.status === 'loading'} startIcon={<PersonAddAlt1OutlinedIcon />} sx={{ justifySelf: 'start' }}>
            {state.status === 'loading' ? kindTexts.addingLead : kindTexts.addAsLead}
          </Button>
        ))}
      {state.status === 'failed' && (
        <Typography variant="caption" color="error">
          {kindTexts.leadFailed}
        </Typography>
      )}
    </Box>
  );
}

export function ContactCards({ message }: { message: ChatMessage }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.75 }}>
      {(message.content?.contacts ?? []).map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a received message's contacts never change; two may share a name
        <ContactCard key={`${c.name}-${i}`} message={message} index={i} contact={c} />
      ))}
    </Box>
  );
}

export function OrderTable({ order }: { order: NonNullable<MessageContent['order']> }) {
  const mayOrder = usePermissions().can('chats', 'create');
  const cell = { px: 0.75, py: 0.5, borderBottom: 1, borderColor: 'divider', fontSize: '0.8rem', textAlign: 'left' as const };
  const num = { ...cell, textAlign: 'right' as const, whiteSpace: 'nowrap' as const };
  return (
    <Box sx={{ ...card, maxWidth: 360 }} data-testid="order-card">
      <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'center' }}>
        <ShoppingCartOutlinedIcon fontSize="small" sx={{ color: 'primary.main' }} />
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {kindTexts.orderTitle}
        </Typography>
      </Box>
      <Box component="table" sx={{ borderCollapse: 'collapse', width: '100%' }}>
        <thead>
          <tr>
            <Box component="th" sx={cell}>
              {kindTexts.orderProduct}
            </Box>
            <Box component="th" sx={num}>
              {kindTexts.orderQuantity}
            </Box>
            <Box component="th" sx={num}>
              {kindTexts.orderPrice}
            </Box>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a received order never changes; a product may come twice
            <tr key={`${item.productRetailerId}-${i}`}>
              <Box component="td" sx={{ ...cell, overflowWrap: 'anywhere' }}>
                {item.productRetailerId}
              </Box>
              <Box component="td" sx={num}>
                {item.quantity}
              </Box>
              <Box component="td" sx={num}>
                {item.itemPrice !== undefined ? money(item.itemPrice, item.currency) : '—'}
              </Box>
            </tr>
          ))}
        </tbody>
        {order.total !== undefined && (
          <tfoot>
            <tr>
              <Box component="td" colSpan={2} sx={{ ...cell, borderBottom: 0, fontWeight: 600 }}>
                {kindTexts.orderTotal}
              </Box>
              <Box component="td" sx={{ ...num, borderBottom: 0, fontWeight: 600 }} data-testid="order-total">
                {money(order.total, order.currency)}
              </Box>
            </tr>
          </tfoot>
        )}
      </Box>
      {mayOrder && (
        <Button size="small" variant="outlined" onClick={requestCreateOrder} sx={{ mt: 1 }} data-testid="cart-create-order">
          {kindTexts.orderCreate}
        </Button>
      )}
    </Box>
  );
}

export function ReferralCard({ referral }: { referral: NonNullable<MessageContent['referral']> }) {
  const link = referral.sourceUrl;
  return (
    <Box sx={{ ...card, borderLeft: 3, borderLeftColor: 'primary.main' }} data-testid="referral-card">
      <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'center' }}>
        <CampaignOutlinedIcon fontSize="small" sx={{ color: 'primary.main' }} />
        <Typography variant="caption" sx={{ fontWeight: 600, color: 'primary.main' }}>
          {kindTexts.fromAd}
        </Typography>
      </Box>
      {referral.headline && (
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {referral.headline}
        </Typography>
      )}
      {referral.body && (
        <Typography variant="caption" color="text.secondary">
          {referral.body}
        </Typography>
      )}
      {!referral.headline && (referral.adId || referral.ref) && (
        <Typography variant="caption" color="text.secondary">
          {referral.adId ? `Anuncio ${referral.adId}` : referral.ref}
        </Typography>
      )}
      {link && <ExternalLink href={link}>{kindTexts.openAd}</ExternalLink>}
    </Box>
  );
}

export function QuotedReply({ replyTo }: { replyTo: NonNullable<MessageContent['replyTo']> }) {
  const who = replyTo.direction === 'out' ? kindTexts.quotedOwn : kindTexts.quotedCustomer;
  const what = replyTo.found ? replyTo.text?.trim() || (replyTo.kind ? kindNames[replyTo.kind] : '') : kindTexts.quotedMissing;
  return (
    <Box data-testid="quoted-reply" sx={{ borderLeft: 3, borderColor: 'primary.light', bgcolor: 'action.hover', borderRadius: 1, px: 1, py: 0.5, minWidth: 0 }}>
      {replyTo.found && (
        <Typography variant="caption" sx={{ fontWeight: 600, color: 'primary.main', display: 'block' }}>
          {who}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}>
        {what}
      </Typography>
    </Box>
  );
}

export function InteractiveTap({ interactive }: { interactive: NonNullable<MessageContent['interactive']> }) {
  return (
    <Box data-testid="interactive-tap" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, px: 1, py: 0.5, borderRadius: 4, border: 1, borderColor: 'primary.light', justifySelf: 'start', maxWidth: '100%' }}>
      <TouchAppOutlinedIcon sx={{ fontSize: 16, color: 'primary.main' }} />
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {interactive.title}
      </Typography>
      {interactive.description && (
        <Typography variant="caption" color="text.secondary">
          · {interactive.description}
        </Typography>
      )}
    </Box>
  );
}

export function StoryNote({ story }: { story: NonNullable<MessageContent['story']> }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }} data-testid="story-note">
      <AutoStoriesOutlinedIcon sx={{ fontSize: 16, color: 'secondary.main' }} />
      <Typography variant="caption" color="text.secondary">
        {story.type === 'mention' ? kindTexts.storyMention : kindTexts.storyReply}
      </Typography>
      {story.url && <ExternalLink href={story.url}>{kindTexts.openStory}</ExternalLink>}
    </Box>
  );
}

export function UnsupportedNote({ content }: { content?: MessageContent }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary' }} data-testid="unsupported-note">
      <ErrorOutlineIcon sx={{ fontSize: 16 }} />
      <Typography variant="body2" sx={{ fontStyle: 'italic', overflowWrap: 'anywhere' }}>
        {kindTexts.unsupported}: {unsupportedReasonOf(content)}
      </Typography>
    </Box>
  );
}

/** Messenger/Instagram attachments besides the one shown as the message's media. */
export function ExtraAttachments({ message }: { message: ChatMessage }) {
  const rest = (message.content?.attachments ?? []).filter((a) => a.url !== message.mediaUrl && a.type !== 'location' && a.type !== 'story_mention');
  if (rest.length === 0) return null;
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }} data-testid="extra-attachments">
      {rest.map((a, i) => {
        const safe = safeMediaUrl(a.url);
        if (a.type === 'image' && safe) {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a received message's attachments never change; a URL may repeat
            <Link key={`${a.url}-${i}`} href={safe} target="_blank" rel="noopener noreferrer">
              <Box component="img" src={safe} alt={a.title || kindNames.image} loading="lazy" sx={{ display: 'block', width: 160, maxWidth: '100%', maxHeight: 160, objectFit: 'cover', borderRadius: 1.5 }} />
            </Link>
          );
        }
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a received message's attachments never change; a URL may repeat
          <Box key={`${a.url}-${i}`} sx={{ display: 'flex', gap: 0.5, alignItems: 'center', minWidth: 0 }}>
            <LinkIcon sx={{ fontSize: 16, color: 'text.secondary' }} />
            {safe ? (
              <ExternalLink href={safe}>{a.title || (a.type === 'file' ? kindNames.document : kindTexts.attachment)}</ExternalLink>
            ) : (
              <Typography variant="body2">{a.title || kindTexts.attachment}</Typography>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
