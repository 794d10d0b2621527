import {
  AUTOMATION_MAX_ACTIONS,
  AUTOMATION_MAX_CONDITIONS,
  type AutomationActionType,
  type AutomationRuleIn,
  type AutomationRuleOut,
  type AutomationTimerKind,
  type AutomationTrigger,
  automationActionLabels,
  automationTimerHints,
  automationTimerKinds,
  automationTimerLabels,
  automationRuleIn,
  automationTriggerLabels,
  automationTriggers,
  type ConditionField,
  type ConditionOp,
  consultationMotiveLabels,
  consultationMotives,
  conditionFieldNames,
  conditionFields,
  conditionOpLabels,
  countries,
  leadStatuses,
  leadStatusLabels,
  orderStatuses,
  orderStatusLabels,
  platformLabels,
  platforms,
  sentimentLabels,
  sentiments,
  valuelessOps,
} from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { fieldErrorsOf } from '../../lib/use-schema-form';
import { automationApi } from './api';
import { automationTexts } from './rule-text';
import { TryOut } from './try-out';
import { type Choice, useRuleNames } from './use-rule-names';

const f = automationTexts.form;

/** A condition row as the editor holds it: every value as the input's text until it is sent. */
interface ConditionDraft {
  key: number;
  field: ConditionField;
  op: ConditionOp;
  value: string;
}
/** An action row: the params of every type, so switching type and back keeps what was typed. */
interface ActionDraft {
  key: number;
  type: AutomationActionType;
  labelId: string;
  agentId: string;
  status: string;
  text: string;
  minutes: string;
  url: string;
  templateId: string;
  bodyValues: string[];
  teamId: string;
  /** An Imagina template's id (apart from the WhatsApp template's: each select its own list). */
  imaginaId: string;
}

let nextKey = 1;
const keyOf = () => nextKey++;

/** What a new condition of a field starts with: its first comparison, and «sí» / WhatsApp where there is an obvious default. */
function freshCondition(field: ConditionField): ConditionDraft {
  const def = conditionFields[field];
  const value = def.value === 'boolean' ? 'true' : def.value === 'platform' ? 'whatsapp' : '';
  return { key: keyOf(), field, op: def.ops[0], value };
}
const freshAction = (type: AutomationActionType = 'add_label'): ActionDraft => ({
  key: keyOf(),
  type,
  labelId: '',
  agentId: '',
  status: '',
  text: '',
  minutes: '',
  url: '',
  templateId: '',
  bodyValues: [],
  teamId: '',
  imaginaId: '',
});

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function conditionsOf(rule: AutomationRuleOut): ConditionDraft[] {
  return rule.conditions.map((c) => ({ key: keyOf(), field: c.field, op: c.op as ConditionOp, value: str(c.value) }));
}
function actionsOf(rule: AutomationRuleOut): ActionDraft[] {
  return rule.actions.map((a) => ({
    ...freshAction(a.type as AutomationActionType),
    labelId: str(a.labelId),
    agentId: str(a.agentId),
    status: str(a.status),
    text: str(a.text),
    minutes: str(a.minutes),
    url: str(a.url),
    templateId: a.type === 'send_imagina' ? '' : str(a.templateId),
    bodyValues: Array.isArray(a.bodyValues) ? a.bodyValues.map(str) : [],
    teamId: str(a.teamId),
    imaginaId: a.type === 'send_imagina' ? str(a.templateId) : '',
  }));
}

/** A condition's value when its comparison changes: the words of «contiene» are no motive for «es». */
const keptValue = (d: ConditionDraft, op: ConditionOp) =>
  d.field === 'motive' && op === 'is' && !(consultationMotives as readonly string[]).includes(d.value) ? '' : d.value;

/** A number typed in a field, or undefined (the contract then says what is missing). */
const numberOf = (s: string) => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

function conditionIn(c: ConditionDraft): NonNullable<AutomationRuleIn['conditions']>[number] {
  if (valuelessOps.includes(c.op)) return { field: c.field, op: c.op };
  const kind = conditionFields[c.field].value;
  const value = kind === 'boolean' ? c.value === 'true' : kind === 'number' ? numberOf(c.value) : c.value === '' ? undefined : c.value;
  return { field: c.field, op: c.op, value };
}

function actionIn(a: ActionDraft): AutomationRuleIn['actions'][number] {
  switch (a.type) {
    case 'add_label':
    case 'remove_label':
      return { type: a.type, labelId: a.labelId };
    case 'assign_agent':
      return { type: a.type, agentId: a.agentId };
    case 'set_lead_status':
      return { type: a.type, status: a.status as (typeof leadStatuses)[number] };
    case 'send_text':
    case 'note':
    case 'notify_agent':
      return { type: a.type, text: a.text };
    case 'snooze':
    case 'wait':
      return { type: a.type, minutes: numberOf(a.minutes) as number };
    case 'webhook':
      return { type: a.type, url: a.url.trim() };
    case 'send_template':
      return { type: a.type, templateId: a.templateId, bodyValues: a.bodyValues };
    case 'assign_team':
      return { type: a.type, teamId: a.teamId };
    case 'send_imagina':
      return { type: a.type, templateId: a.imaginaId };
    default:
      return { type: a.type as 'unassign' | 'resolve' | 'assign_round_robin' | 'reply_products' };
  }
}

/** A select of the editor (MUI's, like the other screens'). */
function Select({
  label,
  value,
  onChange,
  choices,
  error,
  helperText,
  sx,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
  error?: string;
  helperText?: ReactNode;
  sx?: object;
}) {
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={label}
      value={choices.some((c) => c.value === value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? helperText}
      sx={{ minWidth: 0, ...sx }}
    >
      {choices.length === 0 && (
        <MenuItem value="" disabled>
          {f.none}
        </MenuItem>
      )}
      {choices.map((c) => (
        <MenuItem key={c.value} value={c.value} sx={{ whiteSpace: 'normal' }}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

const entries = <K extends string>(labels: Record<K, string>, keys: readonly K[]): Choice[] => keys.map((k) => ({ value: k, label: labels[k] }));
const platformChoices = entries(platformLabels, platforms);
const leadStatusChoices = entries(leadStatusLabels, leadStatuses);
const orderStatusChoices = entries(orderStatusLabels, orderStatuses);
const sentimentChoices = entries(sentimentLabels, sentiments);
const motiveChoices = entries(consultationMotiveLabels, consultationMotives);
const countryChoices: Choice[] = countries.map((c) => ({ value: c.code, label: c.name }));
const yesNo: Choice[] = [
  { value: 'true', label: f.yes },
  { value: 'false', label: f.no },
];
const triggerChoices: Choice[] = [
  ...entries(automationTriggerLabels, automationTriggers),
  ...automationTimerKinds.map((k) => ({ value: `timer:${k}`, label: `Temporizador: ${automationTimerLabels[k]}` })),
];
/** A timer's time as the editor asks it: a number and its unit. */
const units = [
  { value: '1', label: 'minutos' },
  { value: '60', label: 'horas' },
  { value: '1440', label: 'días' },
];
const unitOf = (minutes: number) => (minutes % 1440 === 0 ? 1440 : minutes % 60 === 0 ? 60 : 1);
const fieldChoices = conditionFieldNames.map((k) => ({ value: k, label: conditionFields[k].label }));
const actionChoices = entries(automationActionLabels, Object.keys(automationActionLabels) as AutomationActionType[]);

/** The row's place on a phone: stacked, each row in its own box; from 600 px, one line. */
const rowSx = {
  display: 'flex',
  flexDirection: { xs: 'column', sm: 'row' },
  alignItems: { xs: 'stretch', sm: 'flex-start' },
  gap: 1,
  p: { xs: 1.5, sm: 0 },
  borderWidth: { xs: 1, sm: 0 },
  borderStyle: 'solid',
  borderColor: 'divider',
  borderRadius: 1,
} as const;

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', flexShrink: 0 }}>
      <IconButton aria-label={label} title={label} onClick={onClick} size="small" sx={{ mt: { sm: 0.5 } }}>
        <DeleteOutlined fontSize="small" />
      </IconButton>
    </Box>
  );
}

export interface RuleEditorProps {
  open: boolean;
  /** The rule being edited; null for a new one. */
  rule: AutomationRuleOut | null;
  onClose: () => void;
  onSaved: (rule: AutomationRuleOut) => void;
}

/**
 * The rule editor: when (an event of the spine), if (all or any of its conditions, each one's
 * comparison and value limited to what its field takes), then (its actions and their params).
 * Checked with the contract's `automationRuleIn` before it goes, and the server's refusals shown
 * next to the row they name; a saved rule may be tried on a chat («Probar con un chat»).
 */
export function RuleEditor({ open, rule, onClose, onSaved }: RuleEditorProps) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  return (
    <Dialog open={open} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="rule-editor-title">
      {open && <EditorBody key={rule?._id ?? 'new'} rule={rule} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function EditorBody({ rule, onClose, onSaved }: Omit<RuleEditorProps, 'open'>) {
  const formId = useId();
  const { labels, agents, phones, templates, teams, imagina } = useRuleNames();
  const [name, setName] = useState(rule?.name ?? '');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const initialTimer = rule && 'timer' in rule.trigger ? rule.trigger.timer : undefined;
  const [trigger, setTrigger] = useState<string>(rule ? ('event' in rule.trigger ? rule.trigger.event : `timer:${rule.trigger.timer.kind}`) : 'message.received');
  const [unit, setUnit] = useState<number>(initialTimer ? unitOf(initialTimer.minutes) : 60);
  const [amount, setAmount] = useState<string>(initialTimer ? String(initialTimer.minutes / unitOf(initialTimer.minutes)) : '23');
  const [timerStatus, setTimerStatus] = useState<string>(initialTimer?.status ?? 'done');
  const timerKind = trigger.startsWith('timer:') ? (trigger.slice(6) as AutomationTimerKind) : undefined;
  const [match, setMatch] = useState<'all' | 'any'>(rule?.match ?? 'all');
  const [conditions, setConditions] = useState<ConditionDraft[]>(() => (rule ? conditionsOf(rule) : [freshCondition('text')]));
  const [actions, setActions] = useState<ActionDraft[]>(() => (rule ? actionsOf(rule) : [freshAction()]));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const submitted = useRef(false);

  const inputOf = (over: Partial<{ conditions: ConditionDraft[]; actions: ActionDraft[]; name: string }> = {}): AutomationRuleIn => ({
    name: over.name ?? name,
    enabled,
    trigger: timerKind
      ? { timer: { kind: timerKind, minutes: Math.round(Number(amount) * unit), ...(timerKind === 'order_status_age' ? { status: timerStatus as (typeof orderStatuses)[number] } : {}) } }
      : { event: trigger as AutomationTrigger },
    match,
    conditions: (over.conditions ?? conditions).map(conditionIn),
    actions: (over.actions ?? actions).map(actionIn),
  });
  const check = (input: AutomationRuleIn, drafts = actions) => {
    const result = automationRuleIn.safeParse(input);
    const found = result.success ? {} : fieldErrorsOf(result.error.issues);
    // an id not chosen yet reads as what to choose, not as a malformed id
    drafts.forEach((a, i) => {
      if (found[`actions.${i}.labelId`] && !a.labelId) found[`actions.${i}.labelId`] = f.chooseLabel;
      if (found[`actions.${i}.agentId`] && !a.agentId) found[`actions.${i}.agentId`] = f.chooseAgent;
      if (found[`actions.${i}.templateId`] && a.type === 'send_template' && !a.templateId) found[`actions.${i}.templateId`] = f.chooseTemplate;
      if (found[`actions.${i}.templateId`] && a.type === 'send_imagina' && !a.imaginaId) found[`actions.${i}.templateId`] = f.chooseImagina;
      if (found[`actions.${i}.teamId`] && !a.teamId) found[`actions.${i}.teamId`] = f.chooseTeam;
    });
    setErrors(found);
    return result.success;
  };
  const recheck = (over: NonNullable<Parameters<typeof inputOf>[0]>) => {
    if (submitted.current) check(inputOf(over), over.actions);
  };

  const save = useMutation({
    mutationFn: (input: AutomationRuleIn) => (rule ? automationApi.save(rule._id, input) : automationApi.create(input)),
    onSuccess: onSaved,
    onError: (error) => {
      if (error instanceof ApiError) {
        const details = (error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details ?? [];
        setErrors(Object.fromEntries(details.map((d) => [d.path.replace(/^body\./, ''), d.msg])));
        setFailure(error.messages[0] ?? f.saveFailed);
      } else setFailure(f.saveFailed);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    setFailure(null);
    const input = inputOf();
    if (check(input)) save.mutate(input);
    else setFailure(f.fixErrors);
  };

  const setCondition = (key: number, change: (c: ConditionDraft) => ConditionDraft) => {
    const next = conditions.map((c) => (c.key === key ? change(c) : c));
    setConditions(next);
    recheck({ conditions: next });
  };
  const removeCondition = (key: number) => {
    const next = conditions.filter((c) => c.key !== key);
    setConditions(next);
    recheck({ conditions: next });
  };
  const setAction = (key: number, change: Partial<ActionDraft>) => {
    const next = actions.map((a) => (a.key === key ? { ...a, ...change } : a));
    setActions(next);
    recheck({ actions: next });
  };
  const removeAction = (key: number) => {
    const next = actions.filter((a) => a.key !== key);
    setActions(next);
    recheck({ actions: next });
  };

  const err = (path: string) => errors[path];
  const listError = (path: string) => errors[path];

  const valueInput = (c: ConditionDraft, i: number) => {
    if (valuelessOps.includes(c.op)) return null;
    const kind = conditionFields[c.field].value;
    const error = err(`conditions.${i}.value`);
    const set = (value: string) => setCondition(c.key, (d) => ({ ...d, value }));
    const common = { label: f.value, value: c.value, onChange: set, error, sx: { flex: { sm: 2 } } };
    switch (kind) {
      case 'platform':
        return <Select {...common} choices={platformChoices} />;
      case 'boolean':
        return <Select {...common} choices={yesNo} />;
      case 'label':
        return <Select {...common} label={f.label} choices={labels} />;
      case 'agent':
        return <Select {...common} label={f.agent} choices={agents} />;
      case 'phone':
        return <Select {...common} label={f.phone} choices={phones} />;
      case 'leadStatus':
        return <Select {...common} choices={leadStatusChoices} />;
      case 'orderStatus':
        return <Select {...common} choices={orderStatusChoices} />;
      case 'team':
        return <Select {...common} label={f.team} choices={teams} />;
      case 'sentiment':
        return <Select {...common} choices={sentimentChoices} />;
      case 'country':
        return <Select {...common} choices={countryChoices} />;
      case 'motive':
        // «es» one of the analysis's motives; «contiene» words of it, typed
        if (c.op === 'is') return <Select {...common} choices={motiveChoices} />;
        return (
          <TextField
            size="small"
            fullWidth
            label={f.motiveWords}
            value={c.value}
            onChange={(e) => set(e.target.value)}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ flex: { sm: 2 }, minWidth: 0 }}
          />
        );
      case 'number':
        return (
          <TextField
            size="small"
            fullWidth
            type="number"
            label={f.minutes}
            value={c.value}
            onChange={(e) => set(e.target.value)}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { min: 0, max: 525_600, inputMode: 'numeric' } }}
            sx={{ flex: { sm: 2 }, minWidth: 0 }}
          />
        );
      default:
        return (
          <TextField
            size="small"
            fullWidth
            label={f.value}
            value={c.value}
            onChange={(e) => set(e.target.value)}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ flex: { sm: 2 }, minWidth: 0 }}
          />
        );
    }
  };

  const paramsInput = (a: ActionDraft, i: number) => {
    const e = (k: string) => err(`actions.${i}.${k}`);
    const sx = { flex: { sm: 2 } };
    switch (a.type) {
      case 'add_label':
      case 'remove_label':
        return <Select label={f.label} value={a.labelId} onChange={(labelId) => setAction(a.key, { labelId })} choices={labels} error={e('labelId')} sx={sx} />;
      case 'assign_agent':
        return <Select label={f.agent} value={a.agentId} onChange={(agentId) => setAction(a.key, { agentId })} choices={agents} error={e('agentId')} sx={sx} />;
      case 'assign_team':
        return (
          <Select
            label={f.team}
            value={a.teamId}
            onChange={(teamId) => setAction(a.key, { teamId })}
            choices={teams}
            error={e('teamId') ?? (teams.length ? undefined : f.noTeams)}
            helperText={f.teamHelp}
            sx={sx}
          />
        );
      case 'assign_round_robin':
        return (
          <Typography variant="body2" color="text.secondary" sx={{ ...sx, alignSelf: 'center' }}>
            {f.roundRobinHelp}
          </Typography>
        );
      case 'reply_products':
        return (
          <Typography variant="body2" color="text.secondary" sx={{ ...sx, alignSelf: 'center' }}>
            {f.replyProductsHelp}
          </Typography>
        );
      case 'send_imagina':
        return (
          <Select
            label={f.imagina}
            value={a.imaginaId}
            onChange={(imaginaId) => setAction(a.key, { imaginaId })}
            choices={imagina}
            error={e('templateId') ?? (imagina.length ? undefined : f.noImagina)}
            helperText={f.imaginaHelp}
            sx={sx}
          />
        );
      case 'set_lead_status':
        return <Select label={f.status} value={a.status} onChange={(status) => setAction(a.key, { status })} choices={leadStatusChoices} error={e('status')} sx={sx} />;
      case 'send_text':
      case 'note':
      case 'notify_agent':
        return (
          <TextField
            size="small"
            fullWidth
            multiline
            minRows={2}
            label={a.type === 'note' ? f.noteText : a.type === 'notify_agent' ? f.noticeText : f.text}
            value={a.text}
            onChange={(ev) => setAction(a.key, { text: ev.target.value })}
            error={!!e('text')}
            helperText={e('text')}
            slotProps={{ htmlInput: { maxLength: a.type === 'note' ? 4000 : a.type === 'notify_agent' ? 500 : 4096 } }}
            sx={{ ...sx, minWidth: 0 }}
          />
        );
      case 'send_template': {
        const chosen = templates.find((t) => t.value === a.templateId);
        const values = Array.from({ length: chosen?.values ?? 0 }, (_, n) => a.bodyValues[n] ?? '');
        return (
          <Box sx={{ ...sx, display: 'grid', gap: 1, minWidth: 0 }}>
            <Select
              label={f.template}
              value={a.templateId}
              onChange={(templateId) => setAction(a.key, { templateId, bodyValues: [] })}
              choices={templates}
              error={e('templateId') ?? (templates.length ? undefined : f.noTemplates)}
            />
            {values.map((v, n) => (
              <TextField
                // biome-ignore lint/suspicious/noArrayIndexKey: a template's values are its {{1}}, {{2}}…, by place
                key={n}
                size="small"
                fullWidth
                label={f.templateValue(n + 1)}
                value={v}
                onChange={(ev) => setAction(a.key, { bodyValues: values.map((x, k) => (k === n ? ev.target.value : x)) })}
                error={!!e(`bodyValues.${n}`)}
                helperText={e(`bodyValues.${n}`) ?? (n === values.length - 1 ? f.templateValuesHelp : undefined)}
                slotProps={{ htmlInput: { maxLength: 1024 } }}
              />
            ))}
          </Box>
        );
      }
      case 'snooze':
      case 'wait':
        return (
          <TextField
            size="small"
            fullWidth
            type="number"
            label={a.type === 'wait' ? f.waitMinutes : f.snoozeMinutes}
            value={a.minutes}
            onChange={(ev) => setAction(a.key, { minutes: ev.target.value })}
            error={!!e('minutes')}
            helperText={e('minutes') ?? (a.type === 'wait' ? f.waitHelp : undefined)}
            slotProps={{ htmlInput: { min: 1, max: 43_200, inputMode: 'numeric' } }}
            sx={{ ...sx, minWidth: 0 }}
          />
        );
      case 'webhook':
        return (
          <TextField
            size="small"
            fullWidth
            label={f.url}
            value={a.url}
            onChange={(ev) => setAction(a.key, { url: ev.target.value })}
            error={!!e('url')}
            helperText={e('url') ?? f.urlHelp}
            slotProps={{ htmlInput: { maxLength: 2000, inputMode: 'url' } }}
            sx={{ ...sx, minWidth: 0 }}
          />
        );
      default:
        return <Box sx={{ flex: { sm: 2 }, display: { xs: 'none', sm: 'block' } }} />;
    }
  };

  return (
    <>
      <DialogTitle id="rule-editor-title">{rule ? f.editTitle : f.newTitle}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" id={formId} onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2.5, pt: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'flex-start' } }}>
            <TextField
              label={f.name}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                recheck({ name: e.target.value });
              }}
              error={!!err('name')}
              helperText={err('name') ?? f.nameHelp}
              autoFocus={!rule}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 120 } }}
            />
            <FormControlLabel control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />} label={f.enabled} sx={{ flexShrink: 0, mt: { sm: 1 } }} />
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
            <Select label={f.trigger} value={trigger} onChange={(v) => setTrigger(v)} choices={triggerChoices} error={err('trigger.event') ?? err('trigger')} sx={{ flex: 1 }} />
            <Select
              label={f.match}
              value={match}
              onChange={(v) => setMatch(v as 'all' | 'any')}
              choices={[
                { value: 'all', label: f.matchAll },
                { value: 'any', label: f.matchAny },
              ]}
              error={err('match')}
              sx={{ flex: 1 }}
            />
          </Box>
          {timerKind && (
            <Box sx={{ display: 'grid', gap: 1 }} data-testid="timer-fields">
              <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
                <TextField
                  label="Tiempo"
                  type="number"
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                  error={!!err('trigger.timer.minutes')}
                  helperText={err('trigger.timer.minutes')}
                  slotProps={{ htmlInput: { min: 1, inputMode: 'numeric' } }}
                  sx={{ flex: 1 }}
                />
                <Select label="Unidad" value={String(unit)} onChange={(v) => setUnit(Number(v))} choices={units} sx={{ flex: 1 }} />
                {timerKind === 'order_status_age' && (
                  <Select label="Estado del pedido" value={timerStatus} onChange={(v) => setTimerStatus(v)} choices={orderStatusChoices} error={err('trigger.timer.status')} sx={{ flex: 1 }} />
                )}
              </Box>
              <Typography variant="caption" color="text.secondary">
                {automationTimerHints[timerKind]}
              </Typography>
            </Box>
          )}

          <Box component="section" aria-labelledby={`${formId}-conditions`} sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
            <Typography id={`${formId}-conditions`} variant="subtitle2" component="h3">
              {f.conditions}
            </Typography>
            {listError('conditions') && <Alert severity="error">{listError('conditions')}</Alert>}
            {conditions.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                {f.noConditions}
              </Typography>
            )}
            {conditions.map((c, i) => {
              const def = conditionFields[c.field];
              return (
                <Box key={c.key} data-testid="condition-row" sx={rowSx}>
                  <Select
                    label={f.field}
                    value={c.field}
                    onChange={(v) => setCondition(c.key, () => ({ ...freshCondition(v as ConditionField), key: c.key }))}
                    choices={fieldChoices}
                    error={err(`conditions.${i}.field`)}
                    sx={{ flex: { sm: 2 } }}
                  />
                  <Select
                    label={f.op}
                    value={c.op}
                    onChange={(v) => setCondition(c.key, (d) => ({ ...d, op: v as ConditionOp, value: keptValue(d, v as ConditionOp) }))}
                    choices={def.ops.map((op) => ({ value: op, label: conditionOpLabels[op] }))}
                    error={err(`conditions.${i}.op`)}
                    sx={{ flex: { sm: 1.9 } }}
                  />
                  {valueInput(c, i) ?? <Box sx={{ flex: { sm: 2 }, display: { xs: 'none', sm: 'block' } }} />}
                  <RemoveButton label={f.removeCondition(i + 1)} onClick={() => removeCondition(c.key)} />
                </Box>
              );
            })}
            <Box>
              <Button
                size="small"
                startIcon={<Add />}
                disabled={conditions.length >= AUTOMATION_MAX_CONDITIONS}
                onClick={() => {
                  const next = [...conditions, freshCondition('text')];
                  setConditions(next);
                  recheck({ conditions: next });
                }}
              >
                {f.addCondition}
              </Button>
            </Box>
          </Box>

          <Divider />

          <Box component="section" aria-labelledby={`${formId}-actions`} sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
            <Typography id={`${formId}-actions`} variant="subtitle2" component="h3">
              {f.actions}
            </Typography>
            {listError('actions') && <Alert severity="error">{listError('actions')}</Alert>}
            {actions.map((a, i) => (
              <Box key={a.key} data-testid="action-row" sx={rowSx}>
                <Select
                  label={f.action}
                  value={a.type}
                  onChange={(v) => setAction(a.key, { type: v as AutomationActionType })}
                  choices={actionChoices}
                  error={err(`actions.${i}.type`)}
                  sx={{ flex: { sm: 1.6 } }}
                />
                {paramsInput(a, i)}
                <RemoveButton label={f.removeAction(i + 1)} onClick={() => removeAction(a.key)} />
              </Box>
            ))}
            <Box>
              <Button
                size="small"
                startIcon={<Add />}
                disabled={actions.length >= AUTOMATION_MAX_ACTIONS}
                onClick={() => {
                  const next = [...actions, freshAction()];
                  setActions(next);
                  recheck({ actions: next });
                }}
              >
                {f.addAction}
              </Button>
            </Box>
          </Box>

          <Divider />
          <Box component="section" aria-labelledby={`${formId}-try`} sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
            <Typography id={`${formId}-try`} variant="subtitle2" component="h3">
              {automationTexts.tryOut.title}
            </Typography>
            {rule ? (
              <TryOut ruleId={rule._id} />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {automationTexts.tryOut.savedOnly}
              </Typography>
            )}
          </Box>
        </Box>
      </DialogContent>
      {failure && (
        <Alert severity="error" sx={{ mx: 3, mt: 1 }} role="alert">
          {failure}
        </Alert>
      )}
      <DialogActions>
        <Button onClick={onClose}>{f.cancel}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={save.isPending}>
          {save.isPending ? f.saving : rule ? f.save : f.create}
        </Button>
      </DialogActions>
    </>
  );
}
