import type { Platform } from '@mostrador/contract';
import Facebook from '@mui/icons-material/Facebook';
import Instagram from '@mui/icons-material/Instagram';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { channelNames } from '../texts';

const icons = { whatsapp: WhatsApp, facebook: Facebook, instagram: Instagram } as const;
/** The brands' own colours, so a channel is told apart at a glance. */
export const channelColors: Record<Platform, string> = { whatsapp: '#25D366', facebook: '#0084FF', instagram: '#E1306C' };

/** A chat's channel as an icon with its name for screen readers (WhatsApp, Messenger, Instagram). */
export function ChannelIcon({ platform, ...props }: { platform: Platform } & SvgIconProps) {
  const Icon = icons[platform] ?? WhatsApp;
  return <Icon titleAccess={channelNames[platform]} {...props} sx={{ color: channelColors[platform], ...props.sx }} />;
}
