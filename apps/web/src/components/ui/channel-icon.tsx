import { type LeadPlatform, platformLabels } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import Facebook from '@mui/icons-material/Facebook';
import Instagram from '@mui/icons-material/Instagram';
import Language from '@mui/icons-material/Language';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Box from '@mui/material/Box';
import type { SvgIconProps } from '@mui/material/SvgIcon';

/**
 * The icon and brand colour of each channel (web: forms and the online store), the one
 * source for every screen. The colours are the brands', darkened where needed to stand out
 * on white (WhatsApp).
 */
const channels: Record<LeadPlatform, { icon: SvgIconComponent; color: string }> = {
  whatsapp: { icon: WhatsApp, color: '#1DA851' },
  facebook: { icon: Facebook, color: '#1877F2' },
  instagram: { icon: Instagram, color: '#C13584' },
  web: { icon: Language, color: '#5F6B7A' },
};

const channelOf = (platform: string) => (channels as Record<string, (typeof channels)[LeadPlatform] | undefined>)[platform];

/** A channel's Spanish name (WhatsApp, Facebook, Instagram, Web); an unknown one as it is. */
export const channelLabel = (platform: string): string => (platformLabels as Record<string, string>)[platform] ?? platform;

/** A channel's colour (charts), undefined for an unknown one. */
export const channelColor = (platform: string): string | undefined => channelOf(platform)?.color;

export type ChannelIconProps = {
  platform: string;
  /** The name screen readers hear; the channel's name by default (the chat says Messenger for facebook). */
  label?: string;
  /** Next to a text that already names the channel: hidden from screen readers. */
  decorative?: boolean;
} & Omit<SvgIconProps, 'titleAccess'>;

/** A channel as its icon in its colour; nothing for an unknown channel. */
export function ChannelIcon({ platform, label, decorative = false, sx, ...props }: ChannelIconProps) {
  const channel = channelOf(platform);
  if (!channel) return null;
  const Icon = channel.icon;
  return (
    <Icon
      titleAccess={decorative ? undefined : (label ?? channelLabel(platform))}
      aria-hidden={decorative || undefined}
      {...props}
      sx={[{ color: channel.color }, ...(Array.isArray(sx) ? sx : [sx])]}
    />
  );
}

/** A channel's icon and its name ('—' when there is none). */
export function ChannelLabel({ platform, label }: { platform: unknown; label?: string }) {
  if (typeof platform !== 'string' || !platform) return <>—</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}>
      <ChannelIcon platform={platform} decorative fontSize="small" />
      {label ?? channelLabel(platform)}
    </Box>
  );
}
