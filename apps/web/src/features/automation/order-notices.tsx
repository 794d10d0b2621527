import { type AutomationRuleIn, type OrderStatus, orderStatuses, orderStatusLabels } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { automationApi } from './api';
import { useRuleNames } from './use-rule-names';

export const orderNoticeTexts = {
  open: 'Avisos de órdenes',
  title: 'Avisos de órdenes al cliente',
  help: 'Cuando una orden cambia de estado, el cliente recibe en su chat la plantilla que elijas para ese estado, una vez por cambio. Se crean como reglas que luego puedes editar o apagar.',
  none: 'Sin aviso',
  template: (status: string) => `Orden ${status.toLowerCase()}`,
  noTemplates: 'No hay plantillas aprobadas en la línea de WhatsApp: crea y aprueba una en Mensajería › Mensajes de plantilla.',
  nothingChosen: 'Elige al menos una plantilla',
  create: 'Crear las reglas',
  creating: 'Creando…',
  cancel: 'Cancelar',
  failed: 'No se pudieron crear todas las reglas: revisa la lista y vuelve a intentarlo con las que faltan.',
  ruleName: (status: string) => `Aviso de orden: ${status.toLowerCase()}`,
} as const;
const t = orderNoticeTexts;

/** The values a template's {{1}}, {{2}}, {{3}} get by default: the contact, the order, its status. */
const defaultValues = ['{nombre}', '{pedido}', '{estado}'];

/** The rule an order status's notice is: its event, the status, the template with its values filled when it runs. */
export function orderNoticeRule(status: OrderStatus, templateId: string, values: number): AutomationRuleIn {
  const bodyValues = Array.from({ length: values }, (_, n) => defaultValues[n] ?? '{nombre}');
  return {
    name: t.ruleName(orderStatusLabels[status]),
    enabled: true,
    trigger: { event: status === 'created' ? 'order.created' : 'order.status_changed' },
    match: 'all',
    conditions: [{ field: 'order_status', op: 'is', value: status }],
    actions: [{ type: 'send_template', templateId, bodyValues }],
  };
}

/**
 * «Avisos de órdenes» (issue 29, decision 0077): the order notifications are rules the owner can
 * edit — this dialog only writes them: per status, the line's approved template the customer gets.
 */
export function OrderNoticesDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const titleId = useId();
  const { templates } = useRuleNames(open);
  const [chosen, setChosen] = useState<Partial<Record<OrderStatus, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: async () => {
      for (const status of orderStatuses) {
        const id = chosen[status];
        if (!id) continue;
        const template = templates.find((x) => x.value === id);
        await automationApi.create(orderNoticeRule(status, id, template?.values ?? 0));
      }
    },
    onSuccess: () => {
      setChosen({});
      onCreated();
    },
    onError: () => setError(t.failed),
  });
  const submit = () => {
    if (!Object.values(chosen).some(Boolean)) return setError(t.nothingChosen);
    setError(null);
    create.mutate();
  };
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t.title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t.help}
        </Typography>
        {!templates.length && <Alert severity="info">{t.noTemplates}</Alert>}
        {error && <Alert severity="error">{error}</Alert>}
        <Box sx={{ display: 'grid', gap: 2 }}>
          {orderStatuses.map((status) => (
            <TextField
              key={status}
              select
              size="small"
              label={t.template(orderStatusLabels[status])}
              value={chosen[status] ?? ''}
              onChange={(e) => setChosen((c) => ({ ...c, [status]: e.target.value || undefined }))}
              disabled={!templates.length}
            >
              <MenuItem value="">{t.none}</MenuItem>
              {templates.map((x) => (
                <MenuItem key={x.value} value={x.value}>
                  {x.label}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" onClick={submit} disabled={create.isPending || !templates.length}>
          {create.isPending ? t.creating : t.create}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
