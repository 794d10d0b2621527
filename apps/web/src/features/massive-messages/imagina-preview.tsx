import { imaginaVariables } from '@mostrador/contract';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const labelOf = (name: string) => imaginaVariables[name as keyof typeof imaginaVariables];

/** The text with each `{{variable}}` shown as its value (highlighted) or, without one, as what it will hold. */
function filled(text: string, values: Partial<Record<string, string | undefined>>): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(VARIABLE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const name = m[1];
    const value = values[name]?.trim();
    const known = !!labelOf(name);
    out.push(
      value ? (
        <Box key={at} component="span" data-variable={name} title={labelOf(name)} sx={{ bgcolor: '#FFF3B0', borderRadius: 0.5, px: 0.25 }}>
          {value}
        </Box>
      ) : (
        <Box
          key={at}
          component="span"
          data-variable={name}
          data-missing="true"
          title={known ? labelOf(name) : 'Variable no permitida'}
          sx={{ color: known ? '#8A5A00' : '#B42318', bgcolor: known ? '#FFF3B0' : '#FDECEA', borderRadius: 0.5, px: 0.25, fontFamily: 'monospace', fontSize: '0.95em' }}
        >
          {`{{${name}}}`}
        </Box>
      ),
    );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export interface ImaginaPreviewProps {
  body: string;
  /** Values of the variables (`nombre` → «María»); one without a value shows as `{{nombre}}`, highlighted. */
  values?: Partial<Record<string, string | undefined>>;
  label?: string;
  /** Under the bubble (whose values they are). */
  caption?: ReactNode;
}

/** An Imagina template as the customer's WhatsApp shows it, with its variables highlighted. */
export function ImaginaPreview({ body, values = {}, label = 'Vista previa del mensaje', caption }: ImaginaPreviewProps) {
  return (
    <Box role="figure" aria-label={label} data-testid="imagina-preview" sx={{ bgcolor: '#EFEAE2', borderRadius: 2, p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Box
        sx={{
          bgcolor: '#fff',
          borderRadius: 2,
          borderTopLeftRadius: 0,
          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
          px: 1.25,
          py: 1,
          maxWidth: 420,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 14.2,
          lineHeight: 1.45,
          color: '#111B21',
        }}
      >
        {body.trim() ? filled(body, values) : <Box component="span" sx={{ color: 'text.secondary' }}>El mensaje aparecerá aquí</Box>}
      </Box>
      {caption && <Box sx={{ mt: 1, fontSize: 12, color: 'text.secondary' }}>{caption}</Box>}
    </Box>
  );
}
