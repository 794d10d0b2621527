import { type AutomationTestOut, type ChatSummary, platformLabels } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { automationKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { automationApi } from './api';
import { automationTexts, conditionText, type RuleNames, valueText } from './rule-text';
import { useRuleNames } from './use-rule-names';

const t = automationTexts.tryOut;

/** One condition as it was judged: ✓ or ✗, the clause, and what the chat had. */
export function EvaluatedLine({ c, names }: { c: AutomationTestOut['conditions'][number]; names: RuleNames }) {
  const found = 'actual' in c ? valueText(c.field, c.actual, names) : undefined;
  return (
    <Box component="li" data-testid="evaluated-condition" sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0 }}>
      <Typography component="span" aria-label={c.passed ? 'Se cumple' : 'No se cumple'} sx={{ color: c.passed ? 'success.main' : 'error.main', fontWeight: 700, flexShrink: 0 }}>
        {c.passed ? '✓' : '✗'}
      </Typography>
      <Typography component="span" variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {conditionText(c, names)}
        {found !== undefined && (
          <Typography component="span" variant="body2" color="text.secondary">
            {` — encontró: ${found}`}
          </Typography>
        )}
      </Typography>
    </Box>
  );
}

export const listSx = { listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 } as const;

/** The chats to try a rule on, searched as the inbox searches (name, phone, last message). */
function ChatPicker({ value, onChange }: { value: ChatSummary | null; onChange: (chat: ChatSummary | null) => void }) {
  const { companyId } = useSession();
  const [input, setInput] = useState('');
  // what was typed (not the chosen chat's name the field then shows), searched once typing stops
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = useQuery({
    queryKey: automationKeys.testChats(companyId, search),
    queryFn: ({ signal }) => automationApi.searchChats(search, signal),
    staleTime: 30_000,
    meta: { quiet: true },
  });
  const options = query.data?.payload ?? [];
  return (
    <Autocomplete
      options={value && !options.some((o) => o._id === value._id) ? [value, ...options] : options}
      value={value}
      onChange={(_, chat) => onChange(chat)}
      inputValue={input}
      onInputChange={(_, v, reason) => {
        setInput(v);
        if (reason !== 'reset') setTyped(v);
      }}
      filterOptions={(o) => o}
      getOptionLabel={(c) => `${c.contactName} · ${platformLabels[c.platform]}`}
      isOptionEqualToValue={(a, b) => a._id === b._id}
      loading={query.isFetching}
      loadingText={t.searching}
      noOptionsText={t.noChats}
      renderOption={({ key, ...props }, c) => (
        <li key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2">
              {c.contactName} · {platformLabels[c.platform]}
            </Typography>
            {c.lastMessagePreview && (
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                {c.lastMessagePreview.slice(0, 80)}
              </Typography>
            )}
          </Box>
        </li>
      )}
      renderInput={(params) => <TextField {...params} size="small" label={t.chat} helperText={t.chatHelp} />}
    />
  );
}

/** «Probar con un chat»: what the saved rule would do to a chosen chat now, nothing done. */
export function TryOut({ ruleId }: { ruleId: string }) {
  const { names } = useRuleNames();
  const [chat, setChat] = useState<ChatSummary | null>(null);
  const test = useMutation({ mutationFn: (chatId: string) => automationApi.test(ruleId, chatId) });
  const result = test.data;
  return (
    <Box sx={{ display: 'grid', gap: 1.5, minWidth: 0 }} data-testid="rule-try-out">
      <Typography variant="body2" color="text.secondary">
        {t.help}
      </Typography>
      <ChatPicker
        value={chat}
        onChange={(next) => {
          setChat(next);
          if (next) test.mutate(next._id);
          else test.reset();
        }}
      />
      {test.isPending && <Skeleton variant="rounded" height={72} />}
      {test.isError && <Alert severity="error">{test.error instanceof ApiError ? (test.error.messages[0] ?? t.failed) : t.failed}</Alert>}
      {result && !test.isPending && (
        <Box sx={{ display: 'grid', gap: 1, minWidth: 0 }}>
          {result.conditions.length > 0 && (
            <Box component="ul" sx={listSx}>
              {result.conditions.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the rule's conditions in their order, never reordered here
                <EvaluatedLine key={i} c={c} names={names} />
              ))}
            </Box>
          )}
          {result.matched ? (
            <Alert severity="success" icon={false}>
              <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
                {t.matched}
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {result.actions.map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the rule's actions in their order
                  <li key={i} data-testid="would-do">
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {a.wouldDo}
                    </Typography>
                  </li>
                ))}
              </Box>
            </Alert>
          ) : (
            <Alert severity="info">{t.notMatched}</Alert>
          )}
        </Box>
      )}
    </Box>
  );
}
