import { variableCount, type WhatsappTemplateList } from '@mostrador/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../lib/api-client';
import { automationKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { type RefOption, useRefOptions } from '../../components/crud/use-resource';
import type { RuleNames } from './rule-text';

export interface Choice {
  value: string;
  label: string;
}

const phoneLabel = (numero: string) => (/^\d{6,}$/.test(numero) ? `+${numero}` : numero);

/**
 * The company's labels, agents, sales teams and WhatsApp lines (the same lists the other screens' choices load):
 * the editor's selects offer them, the summaries and runs name the ids a rule holds by them.
 */
export function useRuleNames(enabled = true): {
  names: RuleNames;
  labels: Choice[];
  agents: Choice[];
  teams: Choice[];
  phones: Choice[];
  templates: Array<Choice & { values: number }>;
} {
  const { options, loading } = useRefOptions(['mostrador-labels', 'agentes', 'equipos-de-ventas', 'telefonos'], enabled);
  const { companyId } = useSession();
  // the line's approved templates (what a rule may send outside the 24-hour window), with how many values each asks
  const approved = useQuery({
    queryKey: automationKeys.templates(companyId),
    queryFn: () => api.get<WhatsappTemplateList>('/whatsapp-templates', { query: { status: 'APPROVED', limit: 100 }, overlay: false, notify: false }),
    enabled: enabled && !!companyId,
    staleTime: 60_000,
  });
  return useMemo(() => {
    const of = (key: string, label: (o: RefOption) => string = (o) => o.label) =>
      options.filter((o) => o.key === key).map((o) => ({ value: o.id, label: label(o) }));
    const labels = of('mostrador-labels');
    const agents = of('agentes');
    const teams = of('equipos-de-ventas');
    const phones = of('telefonos', (o) => phoneLabel(o.label));
    const byId = (list: Choice[]) => {
      const map = new Map(list.map((c) => [c.value, c.label]));
      return (id: string) => map.get(id);
    };
    const templates = (approved.data?.payload ?? []).map((t) => ({ value: t._id, label: `${t.name} (${t.language})`, values: variableCount(t.body) }));
    return { names: { label: byId(labels), agent: byId(agents), team: byId(teams), phone: byId(phones), template: byId(templates), loading }, labels, agents, teams, phones, templates };
  }, [options, loading, approved.data]);
}
