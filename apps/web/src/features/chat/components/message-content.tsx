import type { ChatMessage } from '@mostrador/contract';
import BrokenImageOutlinedIcon from '@mui/icons-material/BrokenImageOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { fetchMediaBlob } from '../api';
import { useMediaUrl } from '../hooks/use-media-url';
import { classifyMediaUrl, extensionOf, fileNameOf, type LinkKind, safeMediaUrl, youtubeEmbedUrl, youtubeEmbedsIn } from '../lib/media';
import { chatTexts, kindNames, kindTexts } from '../texts';
import { WhatsappText } from './whatsapp-text';
import { ProductCards } from './product-cards';
import { ContactCards, ExtraAttachments, InteractiveTap, LocationCard, OrderTable, QuotedReply, ReferralCard, StoryNote, UnsupportedNote } from './kind-content';

const MEDIA_MAX_WIDTH = 300;

/** What a message shows besides its text: its kind, or what its link is by SPEC §5 (a text message may carry a link). */
export function mediaKindOf(message: Pick<ChatMessage, 'kind' | 'mediaUrl' | 'hasMedia'>): LinkKind | undefined {
  const byLink = message.mediaUrl ? classifyMediaUrl(message.mediaUrl) : undefined;
  if (byLink === 'youtube') return 'youtube';
  switch (message.kind) {
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
      return message.kind;
    case 'sticker':
      return 'image';
    case 'story':
      // a story mention shows the story (a link that expires: the fallback keeps the link)
      return message.hasMedia || message.mediaUrl ? (byLink === 'video' ? 'video' : 'image') : undefined;
    case 'text':
    case 'interactive':
    case 'referral':
      return message.hasMedia ? undefined : byLink;
    default:
      return undefined;
  }
}

const mimeExtensions: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'text/csv': 'csv',
};

/** A document's name and extension: from its link, else from its MIME type. */
export function documentNameOf(message: Pick<ChatMessage, 'mediaUrl' | 'mimeType' | 'content'>): { name: string; extension: string } {
  const own = message.content?.fileName?.trim();
  const fromLink = own || (message.mediaUrl ? fileNameOf(message.mediaUrl) : '');
  const ownExtension = own && /\.([a-z0-9]{1,8})$/i.exec(own)?.[1]?.toLowerCase();
  const extension =
    ownExtension || (message.mediaUrl ? extensionOf(message.mediaUrl) : '') || (message.mimeType ? (mimeExtensions[message.mimeType] ?? message.mimeType.split('/').pop() ?? '') : '');
  return { name: fromLink || `${kindNames.document}${extension ? `.${extension}` : ''}`, extension };
}

/** A media that could not be shown; its link stays reachable when it has one. */
function MediaFailed({ href }: { href?: string }) {
  const safe = href?.startsWith('blob:') ? undefined : safeMediaUrl(href);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary', py: 0.5, flexWrap: 'wrap' }}>
      <BrokenImageOutlinedIcon fontSize="small" />
      <Typography variant="body2">{chatTexts.mediaError}</Typography>
      {safe && (
        <Link href={safe} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
          {chatTexts.openLink}
          <OpenInNewIcon sx={{ fontSize: 14 }} />
        </Link>
      )}
    </Box>
  );
}

function ImageMedia({ message }: { message: ChatMessage }) {
  const source = useMediaUrl(message);
  const [open, setOpen] = useState(false);
  const [broken, setBroken] = useState(false);
  if (source.loading) return <Skeleton variant="rounded" width={220} height={160} aria-label={chatTexts.mediaLoading} />;
  if (!source.url || broken) return <MediaFailed href={message.mediaUrl} />;
  return (
    <>
      <ButtonBase onClick={() => setOpen(true)} aria-label={chatTexts.openImage} sx={{ borderRadius: 1.5, overflow: 'hidden', display: 'block' }}>
        <Box
          component="img"
          src={source.url}
          alt={message.text?.trim() || kindNames.image}
          loading="lazy"
          onError={() => setBroken(true)}
          sx={{ display: 'block', maxWidth: '100%', width: MEDIA_MAX_WIDTH, maxHeight: 320, objectFit: 'cover', bgcolor: 'action.hover' }}
        />
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" aria-label={kindNames.image}>
        <Box component="img" src={source.url} alt={message.text?.trim() || kindNames.image} sx={{ display: 'block', maxWidth: '100%', maxHeight: '80vh', objectFit: 'contain' }} />
        <DialogActions>
          <Button component="a" href={source.url} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNewIcon />}>
            {chatTexts.openImage}
          </Button>
          <Button onClick={() => setOpen(false)}>{chatTexts.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function PlayerMedia({ message, kind }: { message: ChatMessage; kind: 'video' | 'audio' }) {
  const source = useMediaUrl(message);
  const [broken, setBroken] = useState(false);
  if (source.loading) return <Skeleton variant="rounded" width={kind === 'video' ? 260 : 240} height={kind === 'video' ? 146 : 40} aria-label={chatTexts.mediaLoading} />;
  if (!source.url || broken) return <MediaFailed href={message.mediaUrl} />;
  return kind === 'video' ? (
    <Box component="video" controls preload="metadata" src={source.url} onError={() => setBroken(true)} aria-label={kindNames.video} sx={{ display: 'block', width: MEDIA_MAX_WIDTH, maxWidth: '100%', maxHeight: 320, borderRadius: 1.5, bgcolor: 'common.black' }} />
  ) : (
    <Box component="audio" controls preload="metadata" src={source.url} onError={() => setBroken(true)} aria-label={kindNames.audio} sx={{ display: 'block', width: 260, maxWidth: '100%' }} />
  );
}

function DocumentMedia({ message }: { message: ChatMessage }) {
  const { name, extension } = documentNameOf(message);
  const direct = message.hasMedia ? undefined : safeMediaUrl(message.mediaUrl);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  // Provider media needs the session's headers: fetch it, then save it under its name.
  const download = async () => {
    setState('loading');
    try {
      const blob = await fetchMediaBlob(message._id);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  const body = (
    <>
      <InsertDriveFileOutlinedIcon sx={{ color: 'primary.main' }} />
      <Box sx={{ minWidth: 0, flex: 1, textAlign: 'left' }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 600 }} title={name}>
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {extension ? extension.toUpperCase() : kindNames.document}
        </Typography>
      </Box>
      <DownloadIcon fontSize="small" sx={{ color: 'text.secondary' }} />
    </>
  );
  const sx = {
    display: 'flex',
    alignItems: 'center',
    gap: 1.25,
    px: 1.5,
    py: 1,
    width: 260,
    maxWidth: '100%',
    borderRadius: 1.5,
    border: 1,
    borderColor: 'divider',
    bgcolor: 'background.paper',
    color: 'text.primary',
    textDecoration: 'none',
  } as const;

  if (message.hasMedia) {
    return (
      <>
        <ButtonBase onClick={download} disabled={state === 'loading'} aria-label={`${chatTexts.download} ${name}`} sx={sx}>
          {body}
        </ButtonBase>
        {state === 'failed' && <MediaFailed />}
      </>
    );
  }
  if (!direct) return <MediaFailed />;
  return (
    <Link href={direct} download={name} target="_blank" rel="noopener noreferrer" aria-label={`${chatTexts.download} ${name}`} underline="none" sx={sx}>
      {body}
    </Link>
  );
}

function YoutubeEmbed({ src }: { src: string }) {
  return (
    <Box
      component="iframe"
      src={src}
      title={chatTexts.youtube}
      loading="lazy"
      allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
      referrerPolicy="strict-origin-when-cross-origin"
      allowFullScreen
      sx={{ display: 'block', border: 0, width: MEDIA_MAX_WIDTH, maxWidth: '100%', aspectRatio: '16 / 9', borderRadius: 1.5, bgcolor: 'common.black' }}
    />
  );
}

/**
 * A message's content by kind (SPEC §5): text as text (never HTML; line breaks kept), image
 * (click to open), video and audio with controls, document as a file chip with its name and
 * a download link, and YouTube links as an embedded player.
 */
export function MessageContent({ message }: { message: ChatMessage }) {
  const kind = mediaKindOf(message);
  const content = message.content;
  // a tap shows its title as the button it was; a system notice and an order show their text their own way
  const text = message.kind === 'interactive' && content?.interactive ? '' : (message.text ?? '');
  const linkEmbed = kind === 'youtube' && message.mediaUrl ? youtubeEmbedUrl(message.mediaUrl) : undefined;
  const textEmbeds = youtubeEmbedsIn(text).filter((e) => e !== linkEmbed);
  const reactionTo = message.kind === 'reaction' ? content?.reactionTo : undefined;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 0.75, minWidth: 0 }}>
      {content?.system?.unverified && (
        <Chip size="small" color="warning" variant="outlined" icon={<ReportProblemOutlined />} label={kindTexts.unverifiedOrder} sx={{ justifySelf: 'start' }} data-testid="unverified-note" />
      )}
      {content?.forwarded && (
        <Typography variant="caption" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          {kindTexts.forwarded}
        </Typography>
      )}
      {content?.replyTo && <QuotedReply replyTo={content.replyTo} />}
      {content?.story && <StoryNote story={content.story} />}
      {content?.referral && <ReferralCard referral={content.referral} />}
      {kind === 'image' && <ImageMedia message={message} />}
      {(kind === 'video' || kind === 'audio') && <PlayerMedia message={message} kind={kind} />}
      {kind === 'audio' && content?.voice && (
        <Typography variant="caption" color="text.secondary">
          🎤 {kindTexts.voiceNote}
        </Typography>
      )}
      {kind === 'document' && <DocumentMedia message={message} />}
      {linkEmbed && <YoutubeEmbed src={linkEmbed} />}
      {content?.location && <LocationCard location={content.location} />}
      {message.kind === 'contacts' && <ContactCards message={message} />}
      {content?.order && <OrderTable order={content.order} />}
      {content?.interactive && message.kind === 'interactive' && <InteractiveTap interactive={content.interactive} />}
      {content?.products && <ProductCards products={content.products} />}
      {message.kind === 'unsupported' && <UnsupportedNote content={content} />}
      {reactionTo && (
        <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          {reactionTo.emoji} {kindTexts.reactionOrphan}
        </Typography>
      )}
      {text && (
        <Typography
          variant="body2"
          component="p"
          data-testid="message-text"
          sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', m: 0, ...(message.kind === 'system' ? { fontStyle: 'italic', color: 'text.secondary' } : {}) }}
        >
          {message.kind === 'system' ? text : <WhatsappText text={text} />}
        </Typography>
      )}
      <ExtraAttachments message={message} />
      {textEmbeds.map((src) => (
        <YoutubeEmbed key={src} src={src} />
      ))}
    </Box>
  );
}
