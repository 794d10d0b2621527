import { imaginaVariables, templateLanguageLabels } from '@mostrador/contract';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { CustomFieldProps, ResourceRecord } from '../../components/crud/types';
import { currentMembership, fullName, useSession } from '../../lib/session';
import { useLeadSearch } from '../whatsapp-templates/api';
import { useApprovedTemplates } from './api';
import { ImaginaPreview } from './imagina-preview';

/**
 * The Imagina template screen's own parts (decision 0043): the body with a button per
 * variable and a live preview, the linked WhatsApp template chosen from the line's approved
 * ones, what an Imagina template is, and «Enviar» on each row.
 */

const SAMPLE: Record<string, string> = { nombre: 'María Quispe', telefono: '+51 987 654 321', email: 'maria@correo.pe' };

/** Puts `{{variable}}` where the cursor is (or at the end), and the cursor after it. */
export function insertAt(text: string, start: number | null | undefined, end: number | null | undefined, insert: string): { text: string; cursor: number } {
  const from = start ?? text.length;
  const to = end ?? from;
  return { text: text.slice(0, from) + insert + text.slice(to), cursor: from + insert.length };
}

/** The body: a textarea, a chip per variable that inserts it at the cursor, and the message as a customer would read it. */
export function ImaginaBodyInput({ value, onChange, label, required, error, name }: CustomFieldProps) {
  const text = typeof value === 'string' ? value : '';
  const input = useRef<HTMLTextAreaElement | null>(null);
  const session = useSession();
  const leads = useLeadSearch('');
  const lead = leads.data?.payload.find((l) => l.name);
  const [useLead, setUseLead] = useState(true);
  const company = currentMembership(session)?.company.name;
  const agent = session.user ? fullName(session.user) : undefined;
  const fromLead = useLead && !!lead;
  const values = fromLead
    ? { nombre: lead.name, telefono: lead.telefono ? `+${lead.telefono}` : undefined, email: lead.email, empresa: company, agente: agent }
    : { ...SAMPLE, empresa: company ?? 'Tu empresa', agente: agent ?? 'Tu nombre' };

  const insert = (variable: string) => {
    const el = input.current;
    const next = insertAt(text, el?.selectionStart, el?.selectionEnd, `{{${variable}}}`);
    onChange(next.text);
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.cursor, next.cursor);
    });
  };

  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField
        name={name}
        label={label}
        required={required}
        multiline
        minRows={4}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        error={!!error}
        helperText={error ?? `Escribe tu mensaje y agrega los datos de cada cliente con los botones. ${text.length}/1024`}
        inputRef={input}
        slotProps={{ htmlInput: { maxLength: 1024 } }}
        fullWidth
      />
      <Box role="group" aria-label="Insertar variable" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
          Insertar:
        </Typography>
        {Object.entries(imaginaVariables).map(([variable, description]) => (
          <Tooltip key={variable} title={description}>
            <Chip size="small" variant="outlined" color="primary" label={`{{${variable}}}`} aria-label={`Insertar ${description} ({{${variable}}})`} onClick={() => insert(variable)} />
          </Tooltip>
        ))}
      </Box>
      <ImaginaPreview
        body={text}
        values={values}
        caption={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <span>{fromLead ? `Con los datos de ${lead.name}, uno de tus leads.` : 'Con datos de ejemplo.'}</span>
            {lead && (
              <Box component="button" type="button" onClick={() => setUseLead((u) => !u)} sx={{ border: 0, bgcolor: 'transparent', color: 'primary.main', cursor: 'pointer', p: 0, font: 'inherit', textDecoration: 'underline' }}>
                {fromLead ? 'Ver con datos de ejemplo' : 'Ver con un lead real'}
              </Box>
            )}
          </Box>
        }
      />
    </Box>
  );
}

/** The linked WhatsApp template: one of the line's approved templates in the body's language, or none. */
export function LinkedTemplateSelect({ value, onChange, values, label, error, name }: CustomFieldProps) {
  const chosen = typeof value === 'string' ? value : '';
  const language = typeof values.language === 'string' ? values.language : '';
  const templates = useApprovedTemplates();
  const all = templates.data?.payload.filter((t) => t.status === 'APPROVED') ?? [];
  const sameLanguage = all.filter((t) => !language || t.language === language);
  const names = [...new Set(sameLanguage.map((t) => t.name))];
  const unknown = chosen && !names.includes(chosen);
  const languageName = templateLanguageLabels[language as keyof typeof templateLanguageLabels] ?? language;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField
        select
        name={name}
        label={label}
        value={chosen}
        onChange={(e) => onChange(e.target.value)}
        error={!!error || !!unknown}
        helperText={
          error ??
          (unknown
            ? `«${chosen}» no es una plantilla aprobada de la línea${language ? ` en ${languageName}` : ''}: elige otra o ninguna`
            : 'Para quienes no escribieron en las últimas 24 horas: WhatsApp solo permite escribirles con una plantilla aprobada por Meta')
        }
        fullWidth
      >
        <MenuItem value="">
          <em>Ninguna: solo a quienes escribieron en las últimas 24 horas</em>
        </MenuItem>
        {unknown && <MenuItem value={chosen}>{chosen}</MenuItem>}
        {names.map((n) => (
          <MenuItem key={n} value={n}>
            {n}
          </MenuItem>
        ))}
      </TextField>
      {templates.data && names.length === 0 && (
        <Alert severity="info">
          {templates.data.blocked ?? `La línea no tiene plantillas de WhatsApp aprobadas${language ? ` en ${languageName}` : ''}: créalas en Mensajes de plantilla.`}
        </Alert>
      )}
    </Box>
  );
}

/** What an Imagina template is, over the list. */
export function ImaginaExplainer() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Una plantilla Imagina es tu propio mensaje, escrito con los datos de cada cliente ({Object.keys(imaginaVariables).map((v) => `{{${v}}}`).join(', ')}).
      Solo las aprobadas se pueden enviar: a quienes te escribieron en las últimas 24 horas les llega como texto, sin costo; al resto, como la plantilla de WhatsApp
      vinculada, y sin vínculo quedan fuera.
    </Alert>
  );
}

/** «Enviar» on a row: the massive messages' composer with this template chosen. */
export function ImaginaSendAction({ row }: { row: ResourceRecord }) {
  const name = String(row.name ?? '');
  if (row.status !== 'approved')
    return (
      <Tooltip title="Apruébala para poder enviarla">
        <span>
          <IconButton size="small" disabled aria-label={`Enviar: ${name}`}>
            <SendIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    );
  return (
    <Tooltip title="Enviar">
      <IconButton size="small" component={RouterLink} to={`/marketing/massive-messages?imagina=${encodeURIComponent(row._id)}`} aria-label={`Enviar: ${name}`}>
        <SendIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
