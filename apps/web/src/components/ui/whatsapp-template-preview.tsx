import type { WhatsappTemplate } from '@mostrador/contract';
import CallOutlinedIcon from '@mui/icons-material/CallOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import ReplyIcon from '@mui/icons-material/Reply';
import VideocamOutlinedIcon from '@mui/icons-material/VideocamOutlined';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { imageSrc } from '../../lib/image-src';

export type TemplateParts = Pick<WhatsappTemplate, 'header' | 'body' | 'footer' | 'buttons'>;

export interface WhatsappTemplatePreviewProps {
  template: TemplateParts;
  /** The body's values ({{1}} first); a missing one shows as {{n}}, marked. */
  bodyValues?: ReadonlyArray<string | undefined>;
  headerValue?: string;
  /** Accessible name of the preview. */
  label?: string;
}

/** A text's `{{n}}` filled with values: filled ones highlighted, missing ones marked as still to complete. */
function filled(text: string, values: ReadonlyArray<string | undefined>): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const n = Number(m[1]);
    const value = values[n - 1]?.trim();
    out.push(
      value ? (
        <Box key={`${at}-v`} component="span" data-variable={n} sx={{ bgcolor: '#FFF3B0', borderRadius: 0.5, px: 0.25 }}>
          {value}
        </Box>
      ) : (
        <Box key={`${at}-m`} component="span" data-variable={n} data-missing="true" sx={{ color: '#B42318', bgcolor: '#FDECEA', borderRadius: 0.5, px: 0.25, fontFamily: 'monospace' }}>
          {`{{${n}}}`}
        </Box>
      ),
    );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const mediaIcon = { IMAGE: ImageOutlinedIcon, VIDEO: VideocamOutlinedIcon, DOCUMENT: DescriptionOutlinedIcon } as const;
const mediaName = { IMAGE: 'Imagen', VIDEO: 'Video', DOCUMENT: 'Documento' } as const;

/**
 * A WhatsApp template as the customer's phone shows it: the chat's background, the bubble with
 * its header (text or media), body, footer and time, and the buttons under it. Variables show
 * the values given (highlighted) or `{{n}}` when still missing.
 */
export function WhatsappTemplatePreview({ template, bodyValues = [], headerValue, label = 'Vista previa del mensaje' }: WhatsappTemplatePreviewProps) {
  const h = template.header;
  const Media = h && h.format !== 'TEXT' ? mediaIcon[h.format] : undefined;
  return (
    <Box role="figure" aria-label={label} data-testid="template-preview" sx={{ bgcolor: '#EFEAE2', borderRadius: 2, p: { xs: 1.5, sm: 2 }, minHeight: 120 }}>
      <Box sx={{ maxWidth: 340 }}>
        <Box
          sx={{
            position: 'relative',
            bgcolor: '#FFFFFF',
            borderRadius: '0 8px 8px 8px',
            boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
            p: 0.75,
            pb: 0.5,
            '&::before': { content: '""', position: 'absolute', top: 0, left: -8, borderTop: '8px solid #FFFFFF', borderLeft: '8px solid transparent' },
          }}
        >
          {h?.format === 'TEXT' && h.text && (
            <Box data-part="header" sx={{ fontWeight: 700, px: 0.5, pt: 0.25, mb: 0.5, fontSize: 15, overflowWrap: 'anywhere' }}>
              {filled(h.text, [headerValue])}
            </Box>
          )}
          {Media && h && h.format !== 'TEXT' && (
            <Box
              data-part="header"
              sx={{
                height: 130,
                borderRadius: 1.5,
                mb: 0.75,
                bgcolor: '#D9DEE3',
                backgroundImage: h.format === 'IMAGE' && h.mediaUrl ? `url("${(imageSrc(h.mediaUrl) ?? '').replace(/"/g, '%22')}")` : undefined,
                backgroundSize: 'cover',
                backgroundPosition: 'center',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                color: '#54656F',
              }}
              aria-label={mediaName[h.format]}
            >
              {!(h.format === 'IMAGE' && h.mediaUrl) && <Media sx={{ fontSize: 44 }} />}
            </Box>
          )}
          <Box data-part="body" sx={{ px: 0.5, fontSize: 14.2, lineHeight: 1.45, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: '#111B21' }}>
            {template.body ? filled(template.body, bodyValues) : <Box component="span" sx={{ color: 'text.disabled' }}>El cuerpo del mensaje aparece aquí</Box>}
          </Box>
          {template.footer && (
            <Box data-part="footer" sx={{ px: 0.5, mt: 0.5, fontSize: 13, color: '#667781', overflowWrap: 'anywhere' }}>
              {template.footer}
            </Box>
          )}
          <Box sx={{ textAlign: 'right', fontSize: 11, color: '#667781', mt: 0.25, pr: 0.25 }}>12:34</Box>
        </Box>
        {template.buttons.map((b, i) => {
          const Icon = b.type === 'URL' ? OpenInNewIcon : b.type === 'PHONE_NUMBER' ? CallOutlinedIcon : ReplyIcon;
          return (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: buttons have no id; their order is their identity
              key={i}
              data-part="button"
              sx={{
                mt: 0.5,
                bgcolor: '#FFFFFF',
                borderRadius: 2,
                boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
                py: 0.9,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                gap: 0.75,
                color: '#027EB5',
                fontSize: 14,
                fontWeight: 500,
              }}
            >
              <Icon sx={{ fontSize: 17 }} />
              {b.text || 'Botón'}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
