import {
  TEMPLATE_LIMITS,
  type TemplateButtonType,
  type TemplateHeaderFormat,
  type TemplateLeadField,
  templateButtonTypeLabels,
  templateButtonTypes,
  templateCategoryLabels,
  templateHeaderFormatLabels,
  templateLeadFields,
  variableCount,
  waTemplateLanguages,
  type WhatsappTemplateInput,
  whatsappTemplateInput,
} from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type FormEvent, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { WhatsappTemplatePreview } from '../../components/ui/whatsapp-template-preview';
import { ApiError } from '../../lib/api-client';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { texts } from './texts';

type HeaderChoice = 'NONE' | TemplateHeaderFormat;
// the header's example file «Desde Drive» (decision 0056): the picker loads when first opened
const DrivePicker = lazy(() => import('../drive/drive-picker').then((m) => ({ default: m.DrivePicker })));
const driveKindOf = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' } as const;
interface ButtonDraft {
  type: TemplateButtonType;
  text: string;
  url: string;
  phoneNumber: string;
}
interface Draft {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY';
  header: HeaderChoice;
  headerText: string;
  headerExample: string;
  mediaUrl: string;
  body: string;
  examples: string[];
  fields: Array<TemplateLeadField | ''>;
  footer: string;
  buttons: ButtonDraft[];
}

const empty: Draft = {
  name: '',
  language: 'es_PE',
  category: 'UTILITY',
  header: 'NONE',
  headerText: '',
  headerExample: '',
  mediaUrl: '',
  body: '',
  examples: [],
  fields: [],
  footer: '',
  buttons: [],
};

/** The draft as the contract's input (the server's own schema validates it). */
export function toInput(d: Draft): WhatsappTemplateInput {
  const n = variableCount(d.body);
  return {
    name: d.name,
    language: d.language,
    category: d.category,
    header:
      d.header === 'NONE'
        ? undefined
        : d.header === 'TEXT'
          ? { format: 'TEXT', text: d.headerText, example: d.headerExample.trim() || undefined }
          : { format: d.header, mediaUrl: d.mediaUrl.trim() || undefined },
    body: d.body,
    bodyExamples: d.examples.slice(0, n).map((e) => e ?? ''),
    footer: d.footer.trim() || undefined,
    buttons: d.buttons.map((b) => ({
      type: b.type,
      text: b.text,
      ...(b.type === 'URL' ? { url: b.url } : {}),
      ...(b.type === 'PHONE_NUMBER' ? { phoneNumber: b.phoneNumber } : {}),
    })),
    variableFields: Array.from({ length: n }, (_, i) => d.fields[i] ?? ''),
  };
}

export interface TemplateFormDialogProps {
  open: boolean;
  onClose: () => void;
  onSubmit: (input: WhatsappTemplateInput) => Promise<unknown>;
}

/**
 * A new WhatsApp template, checked as Meta checks it (the contract's whatsappTemplateInput:
 * the name, the variables numbered without gaps, an example for each, the lengths, ten buttons
 * at most) with the bubble it will be beside it, filled with the examples.
 */
export function TemplateFormDialog({ open, onClose, onSubmit }: TemplateFormDialogProps) {
  const [d, setD] = useState<Draft>(empty);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [fromDrive, setFromDrive] = useState(false);
  const fullScreen = useMediaQuery('(max-width:600px)');

  useEffect(() => {
    if (open) {
      setD(empty);
      setSubmitted(false);
      setServerErrors({});
      setRefusal(undefined);
    }
  }, [open]);

  const input = useMemo(() => toInput(d), [d]);
  const parsed = useMemo(() => whatsappTemplateInput.safeParse(input), [input]);
  const errors: Record<string, string> = submitted ? { ...serverErrors, ...(parsed.success ? {} : fieldErrorsOf(parsed.error.issues)) } : {};
  const n = variableCount(d.body);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setD((cur) => ({ ...cur, [key]: value }));
    setServerErrors({});
  };
  const setAt = <K extends 'examples' | 'fields'>(key: K, i: number, value: Draft[K][number]) =>
    setD((cur) => {
      const next = [...cur[key]] as Draft[K];
      next[i] = value;
      return { ...cur, [key]: next };
    });
  const setButton = (i: number, patch: Partial<ButtonDraft>) => setD((cur) => ({ ...cur, buttons: cur.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) }));
  const addVariable = () => set('body', `${d.body}${d.body && !d.body.endsWith(' ') ? ' ' : ''}{{${n + 1}}}`);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setRefusal(undefined);
    if (!parsed.success) return;
    setSaving(true);
    try {
      await onSubmit(parsed.data as WhatsappTemplateInput);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        const details = (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | undefined)?.errors?.details ?? [];
        setServerErrors(Object.fromEntries(details.map((x) => [x.path, x.msg])));
        setRefusal(error.messages[0]);
      } else setRefusal(texts.saveFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="lg" fullScreen={fullScreen} aria-labelledby="template-form-title">
      <form onSubmit={submit} noValidate aria-label={texts.newTitle}>
        <DialogTitle id="template-form-title">{texts.newTitle}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0,1.25fr) minmax(0,1fr)' }, gap: 3, pt: '8px !important' }}>
          <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
            {refusal && (
              <Alert severity="error" data-testid="template-refusal">
                {refusal}
              </Alert>
            )}
            <TextField
              label={texts.name}
              value={d.name}
              onChange={(e) => set('name', e.target.value)}
              error={!!errors.name}
              helperText={errors.name ?? texts.nameHelp}
              required
              autoFocus
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
            />
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
              <TextField select label={texts.language} value={d.language} onChange={(e) => set('language', e.target.value)} error={!!errors.language} helperText={errors.language}>
                {Object.entries(waTemplateLanguages).map(([code, name]) => (
                  <MenuItem key={code} value={code}>
                    {name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label={texts.category}
                value={d.category}
                onChange={(e) => set('category', e.target.value as Draft['category'])}
                error={!!errors.category}
                helperText={errors.category ?? texts.categoryHelp[d.category]}
              >
                <MenuItem value="UTILITY">{templateCategoryLabels.UTILITY}</MenuItem>
                <MenuItem value="MARKETING">{templateCategoryLabels.MARKETING}</MenuItem>
              </TextField>
            </Box>

            <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
              {texts.headerSection}
            </Typography>
            <TextField select label={texts.headerKind} value={d.header} onChange={(e) => set('header', e.target.value as HeaderChoice)}>
              <MenuItem value="NONE">{texts.noHeader}</MenuItem>
              {(Object.keys(templateHeaderFormatLabels) as TemplateHeaderFormat[]).map((f) => (
                <MenuItem key={f} value={f}>
                  {templateHeaderFormatLabels[f]}
                </MenuItem>
              ))}
            </TextField>
            {d.header === 'TEXT' && (
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' }, gap: 2 }}>
                <TextField
                  label={texts.headerText}
                  value={d.headerText}
                  onChange={(e) => set('headerText', e.target.value)}
                  error={!!errors['header.text']}
                  helperText={errors['header.text'] ?? `${d.headerText.length}/${TEMPLATE_LIMITS.header} · ${texts.headerTextHelp}`}
                />
                {/\{\{/.test(d.headerText) && (
                  <TextField
                    label={texts.exampleOf(1)}
                    value={d.headerExample}
                    onChange={(e) => set('headerExample', e.target.value)}
                    error={!!errors['header.example']}
                    helperText={errors['header.example']}
                  />
                )}
              </Box>
            )}
            {d.header !== 'NONE' && d.header !== 'TEXT' && (
              <Box sx={{ display: 'grid', gap: 1 }}>
                <TextField
                  label={texts.mediaUrl}
                  value={d.mediaUrl}
                  onChange={(e) => set('mediaUrl', e.target.value)}
                  error={!!errors['header.mediaUrl']}
                  helperText={errors['header.mediaUrl'] ?? texts.mediaUrlHelp}
                  placeholder="https://"
                  inputMode="url"
                />
                <Button size="small" sx={{ justifySelf: 'start' }} onClick={() => setFromDrive(true)}>
                  {texts.mediaFromDrive}
                </Button>
                {fromDrive && (
                  <Suspense fallback={null}>
                    <DrivePicker
                      open={fromDrive}
                      onClose={() => setFromDrive(false)}
                      kind={driveKindOf[d.header as keyof typeof driveKindOf]}
                      title={texts.mediaFromDrive}
                      onPick={(file) => {
                        set('mediaUrl', file.url);
                        setFromDrive(false);
                      }}
                    />
                  </Suspense>
                )}
              </Box>
            )}

            <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
              {texts.bodySection}
            </Typography>
            <TextField
              label={texts.body}
              value={d.body}
              onChange={(e) => set('body', e.target.value)}
              error={!!errors.body}
              helperText={errors.body ?? `${d.body.length}/${TEMPLATE_LIMITS.body} · ${texts.bodyHelp}`}
              multiline
              minRows={4}
              maxRows={12}
              required
            />
            <Box>
              <Button size="small" startIcon={<AddIcon />} onClick={addVariable}>
                {texts.addVariable}
              </Button>
            </Box>
            {n > 0 && (
              <Box sx={{ display: 'grid', gap: 1.5 }} data-testid="variables">
                {errors.bodyExamples && <Alert severity="error">{errors.bodyExamples}</Alert>}
                {Array.from({ length: n }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a variable is its number
                  <Box key={i} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
                    <TextField
                      size="small"
                      label={texts.exampleOf(i + 1)}
                      value={d.examples[i] ?? ''}
                      onChange={(e) => setAt('examples', i, e.target.value)}
                      error={!!errors[`bodyExamples.${i}`]}
                      helperText={errors[`bodyExamples.${i}`]}
                    />
                    <TextField
                      size="small"
                      select
                      label={texts.fieldOf(i + 1)}
                      value={d.fields[i] ?? ''}
                      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                      onChange={(e) => setAt('fields', i, e.target.value as TemplateLeadField | '')}
                    >
                      <MenuItem value="">{texts.typedByAgent}</MenuItem>
                      {(Object.keys(templateLeadFields) as TemplateLeadField[]).map((f) => (
                        <MenuItem key={f} value={f}>
                          {templateLeadFields[f]}
                        </MenuItem>
                      ))}
                    </TextField>
                  </Box>
                ))}
              </Box>
            )}
            <TextField
              label={texts.footer}
              value={d.footer}
              onChange={(e) => set('footer', e.target.value)}
              error={!!errors.footer}
              helperText={errors.footer ?? `${d.footer.length}/${TEMPLATE_LIMITS.footer} · ${texts.footerHelp}`}
            />

            <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
              {texts.buttonsSection}
            </Typography>
            {errors.buttons && <Alert severity="error">{errors.buttons}</Alert>}
            {d.buttons.map((b, i) => (
              <Box
                // biome-ignore lint/suspicious/noArrayIndexKey: buttons are edited in place, by position
                key={i}
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: '150px 1fr 1fr auto' }, gap: 1, alignItems: 'start' }}
                data-testid="button-row"
              >
                <TextField size="small" select label={texts.buttonType} value={b.type} onChange={(e) => setButton(i, { type: e.target.value as TemplateButtonType })}>
                  {templateButtonTypes.map((type) => (
                    <MenuItem key={type} value={type}>
                      {templateButtonTypeLabels[type]}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton aria-label={texts.removeButton} onClick={() => set('buttons', d.buttons.filter((_, j) => j !== i))} sx={{ display: { sm: 'none' }, justifySelf: 'end' }}>
                  <DeleteOutlineIcon />
                </IconButton>
                <TextField
                  size="small"
                  label={texts.buttonText}
                  value={b.text}
                  onChange={(e) => setButton(i, { text: e.target.value })}
                  error={!!errors[`buttons.${i}.text`]}
                  helperText={errors[`buttons.${i}.text`]}
                  sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                />
                {b.type === 'URL' ? (
                  <TextField
                    size="small"
                    label={texts.buttonUrl}
                    value={b.url}
                    onChange={(e) => setButton(i, { url: e.target.value })}
                    error={!!errors[`buttons.${i}.url`]}
                    helperText={errors[`buttons.${i}.url`]}
                    placeholder="https://"
                    sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                  />
                ) : b.type === 'PHONE_NUMBER' ? (
                  <TextField
                    size="small"
                    label={texts.buttonPhone}
                    value={b.phoneNumber}
                    onChange={(e) => setButton(i, { phoneNumber: e.target.value })}
                    error={!!errors[`buttons.${i}.phoneNumber`]}
                    helperText={errors[`buttons.${i}.phoneNumber`]}
                    placeholder="+51987654321"
                    sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' } }}
                  />
                ) : (
                  <Box sx={{ display: { xs: 'none', sm: 'block' } }} />
                )}
                <IconButton aria-label={texts.removeButton} onClick={() => set('buttons', d.buttons.filter((_, j) => j !== i))} sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
                  <DeleteOutlineIcon />
                </IconButton>
              </Box>
            ))}
            <Box>
              <Button
                size="small"
                startIcon={<AddIcon />}
                disabled={d.buttons.length >= TEMPLATE_LIMITS.buttons}
                onClick={() => set('buttons', [...d.buttons, { type: 'QUICK_REPLY', text: '', url: '', phoneNumber: '' }])}
              >
                {texts.addButton}
              </Button>
            </Box>
          </Box>
          <Box sx={{ position: { md: 'sticky' }, top: 0, alignSelf: 'start' }}>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {texts.preview}
            </Typography>
            <WhatsappTemplatePreview
              template={{
                header: input.header?.format === 'TEXT' ? { format: 'TEXT', text: input.header.text } : input.header ? { format: input.header.format, mediaUrl: input.header.mediaUrl } : undefined,
                body: d.body,
                footer: d.footer || undefined,
                buttons: d.buttons.map((b) => ({ type: b.type, text: b.text })),
              }}
              bodyValues={d.examples}
              headerValue={d.headerExample}
              label={texts.previewNew}
            />
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
              {texts.previewNewHelp}
            </Typography>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{texts.cancel}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {texts.submit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
