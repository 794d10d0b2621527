import { formMessages, labelsMassiveInput, resources, sendToAudienceInput, spanishIssue, type ZodIssueLike } from '@mostrador/contract';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { RefField } from '../../components/crud/ref-field';
import { serverFieldErrors } from '../../components/crud/validation';
import { displayNameOf, useResourceList } from '../../components/crud/use-resource';
import { formatCount } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { resourceKeys } from '../../lib/query-keys';
import { type AudienceSendResult, type LabelsMassiveResult, leadsApi } from './api';

type Errors = Record<string, string>;

/**
 * Checks a body with the contract's schema (the one the server uses), in Spanish; a choice
 * left empty reads 'Este campo es requerido' rather than the id's format message.
 */
export function validate<S extends z.ZodType>(schema: S, body: Record<string, unknown>, required: readonly string[]): { data?: z.output<S>; errors: Errors } {
  const result = schema.safeParse(body, { error: (issue) => spanishIssue(issue as ZodIssueLike) });
  const errors: Errors = result.success ? {} : fieldErrorsOf(result.error.issues);
  for (const field of required) if (!body[field]) errors[field] = formMessages.required;
  return Object.keys(errors).length ? { errors } : { data: result.data, errors };
}

/** A 400's field messages under the fields (the snackbar already says it). */
const fieldErrorsOfFailure = (error: unknown): Errors => (error instanceof ApiError ? serverFieldErrors(error.body) : {});

/** The most segments or audiences a choice lists. */
const CHOICES_LIMIT = 200;
const choicesQuery = { sort: 'name', order: 'asc', page: 1, limit: CHOICES_LIMIT } as const;

interface BulkDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The frame both bulk actions share: a form, then what the server did. */
function BulkDialog({
  open,
  onClose,
  title,
  submitLabel,
  pending,
  done,
  onSubmit,
  children,
}: BulkDialogProps & { title: string; submitLabel: string; pending: boolean; done: ReactNode; onSubmit: () => void; children: ReactNode }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        {done ?? (
          <Box component="form" id={formId} noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2.5, pt: 1 }}>
            {children}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {done ? (
          <Button variant="contained" onClick={onClose}>
            Cerrar
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancelar</Button>
            <Button type="submit" form={formId} variant="contained" disabled={pending}>
              {submitLabel}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

function useRecordChoices(key: 'marketing-segments' | 'facebook-audiences', enabled: boolean) {
  const list = useResourceList(resources[key], choicesQuery, enabled);
  return list.data?.payload ?? [];
}

/**
 * The state both bulk dialogs share: their values, checked with the contract's schema on
 * submit and, after a first submit, on every change; the server's 400 under the fields.
 */
function useBulkForm<V extends Record<string, unknown>, S extends z.ZodType, R>({
  initial,
  toBody,
  schema,
  required,
  mutationFn,
  onSuccess,
}: {
  initial: V;
  toBody: (values: V) => Record<string, unknown>;
  schema: S;
  required: readonly string[];
  mutationFn: (data: z.output<S>) => Promise<R>;
  onSuccess?: () => unknown;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const send = useMutation({ mutationFn, onSuccess });
  const check = (v: V) => validate(schema, toBody(v), required);
  return {
    values,
    errors,
    send,
    set<K extends keyof V>(key: K, value: V[K]) {
      const next = { ...values, [key]: value };
      setValues(next);
      if (submitted) setErrors(check(next).errors);
    },
    submit() {
      setSubmitted(true);
      const { data, errors: found } = check(values);
      setErrors(found);
      if (data) send.mutate(data, { onError: (error) => setErrors(fieldErrorsOfFailure(error)) });
    },
    reset() {
      setValues(initial);
      setErrors({});
      setSubmitted(false);
      send.reset();
    },
  };
}

/** "Etiquetar segmento": adds labels to every person of a marketing segment (POST …/set_mostrador_labels_massive). */
export function SegmentLabelsDialog({ open, onClose }: BulkDialogProps) {
  const queryClient = useQueryClient();
  const segments = useRecordChoices('marketing-segments', open);
  const form = useBulkForm({
    initial: { segmentId: '', labels: [] as string[], mailchimp: false },
    toBody: (v) => ({ segmentId: v.segmentId || undefined, mostradorLabelIds: v.labels, hasToSendToMailchimp: v.mailchimp }),
    schema: labelsMassiveInput,
    required: ['segmentId'],
    mutationFn: leadsApi.labelSegment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys('clean-leads').all }),
  });
  const { values, errors } = form;
  const close = () => {
    onClose();
    form.reset();
  };
  const result: LabelsMassiveResult | undefined = form.send.data;
  return (
    <BulkDialog
      open={open}
      onClose={close}
      title="Etiquetar segmento"
      submitLabel="Etiquetar"
      pending={form.send.isPending}
      onSubmit={form.submit}
      done={
        result && (
          <Alert icon={<CheckCircleOutline />} severity="success" data-testid="bulk-result">
            {result.updated === 1 ? 'Se actualizó 1 persona del segmento.' : `Se actualizaron ${formatCount(result.updated)} personas del segmento.`}
            {result.mailchimpSyncId && (
              <>
                {' Las etiquetas se están enviando a Mailchimp: '}
                <Link component={RouterLink} to="/mailchimp">
                  sigue el envío y su informe
                </Link>
                .
              </>
            )}
          </Alert>
        )
      }
    >
      <TextField
        select
        label="Segmento"
        required
        value={values.segmentId}
        onChange={(event) => form.set('segmentId', event.target.value)}
        error={!!errors.segmentId}
        helperText={errors.segmentId ?? 'Las personas que cumplen los filtros del segmento'}
      >
        {segments.length === 0 && (
          <MenuItem value="" disabled>
            No hay segmentos: créalos en Segmentos
          </MenuItem>
        )}
        {segments.map((s) => (
          <MenuItem key={s._id} value={s._id}>
            {displayNameOf(s)}
          </MenuItem>
        ))}
      </TextField>
      <RefField
        id="segment-labels"
        name="mostradorLabelIds"
        label="Etiquetas"
        keys={['mostrador-labels']}
        multiple
        required
        value={values.labels}
        onChange={(ids) => form.set('labels', ids as string[])}
        error={!!errors.mostradorLabelIds}
        helperText={errors.mostradorLabelIds ?? 'Se agregan a las que ya tiene cada persona'}
      />
      <FormControlLabel
        control={<Checkbox checked={values.mailchimp} onChange={(event) => form.set('mailchimp', event.target.checked)} />}
        label="Enviar también a Mailchimp"
      />
    </BulkDialog>
  );
}

/** "Enviar a audiencia": the people with some labels to a Facebook audience (POST /clean-leads/send-to-audience). */
export function AudienceDialog({ open, onClose }: BulkDialogProps) {
  const audiences = useRecordChoices('facebook-audiences', open);
  const form = useBulkForm({
    initial: { audienceId: '', labels: [] as string[], missingOnly: false },
    toBody: (v) => {
      const metaId = audiences.find((a) => a._id === v.audienceId)?.facebookAudienceId;
      return {
        audienceId: v.audienceId || undefined,
        ...(typeof metaId === 'string' && metaId ? { facebookAudienceId: metaId } : {}),
        mostradorLabels: v.labels,
        showMissingLeads: v.missingOnly,
      };
    },
    schema: sendToAudienceInput,
    required: ['audienceId'],
    mutationFn: leadsApi.sendToAudience,
  });
  const { values, errors } = form;
  const close = () => {
    onClose();
    form.reset();
  };
  const result: AudienceSendResult | undefined = form.send.data;
  const audienceName = displayNameOf(audiences.find((a) => a._id === values.audienceId));
  return (
    <BulkDialog
      open={open}
      onClose={close}
      title="Enviar a audiencia"
      submitLabel="Enviar"
      pending={form.send.isPending}
      onSubmit={form.submit}
      done={
        result && (
          <Alert icon={<CheckCircleOutline />} severity="success" data-testid="bulk-result">
            {result.count === 1 ? '1 persona' : `${formatCount(result.count)} personas`} para «{audienceName}». La carga quedó en cola: la audiencia se
            actualizará en Facebook en unos minutos.
          </Alert>
        )
      }
    >
      <TextField
        select
        label="Audiencia de Facebook"
        required
        value={values.audienceId}
        onChange={(event) => form.set('audienceId', event.target.value)}
        error={!!errors.audienceId || !!errors.facebookAudienceId}
        helperText={errors.audienceId ?? errors.facebookAudienceId}
      >
        {audiences.length === 0 && (
          <MenuItem value="" disabled>
            No hay audiencias: créalas en Audiencias de Facebook
          </MenuItem>
        )}
        {audiences.map((a) => (
          <MenuItem key={a._id} value={a._id}>
            {displayNameOf(a)}
          </MenuItem>
        ))}
      </TextField>
      <RefField
        id="audience-labels"
        name="mostradorLabels"
        label="Etiquetas"
        keys={['mostrador-labels']}
        multiple
        required
        value={values.labels}
        onChange={(ids) => form.set('labels', ids as string[])}
        error={!!errors.mostradorLabels}
        helperText={errors.mostradorLabels ?? 'Las personas con alguna de estas etiquetas'}
      />
      <Box>
        <FormControlLabel
          control={<Checkbox checked={values.missingOnly} onChange={(event) => form.set('missingOnly', event.target.checked)} />}
          label="Solo los que faltan"
        />
        <FormHelperText sx={{ mt: -0.5, ml: 4 }}>Solo las personas que aún no están en esta audiencia</FormHelperText>
      </Box>
    </BulkDialog>
  );
}
