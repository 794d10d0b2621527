import { platformLabels } from '@mostrador/contract';
import Facebook from '@mui/icons-material/Facebook';
import Instagram from '@mui/icons-material/Instagram';
import Language from '@mui/icons-material/Language';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type { SvgIconComponent } from '@mui/icons-material';
import Box from '@mui/material/Box';

/** The icon and brand colour of each lead channel (web: forms and the online store). */
export const channelIcons: Record<string, { icon: SvgIconComponent; color: string }> = {
  whatsapp: { icon: WhatsApp, color: '#1DA851' },
  facebook: { icon: Facebook, color: '#1877F2' },
  instagram: { icon: Instagram, color: '#C13584' },
  web: { icon: Language, color: '#5F6B7A' },
};

export const channelLabel = (platform: string): string => (platformLabels as Record<string, string>)[platform] ?? platform;

/** A lead's channel: its icon and its name. */
export function ChannelLabel({ platform }: { platform: unknown }) {
  if (typeof platform !== 'string' || !platform) return <>—</>;
  const channel = channelIcons[platform];
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}>
      {channel && <channel.icon fontSize="small" sx={{ color: channel.color }} aria-hidden />}
      {channelLabel(platform)}
    </Box>
  );
}
