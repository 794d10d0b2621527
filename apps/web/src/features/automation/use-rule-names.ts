import { useMemo } from 'react';
import { type RefOption, useRefOptions } from '../../components/crud/use-resource';
import type { RuleNames } from './rule-text';

export interface Choice {
  value: string;
  label: string;
}

const phoneLabel = (numero: string) => (/^\d{6,}$/.test(numero) ? `+${numero}` : numero);

/**
 * The company's labels, agents and WhatsApp lines (the same lists the other screens' choices load):
 * the editor's selects offer them, the summaries and runs name the ids a rule holds by them.
 */
export function useRuleNames(enabled = true): { names: RuleNames; labels: Choice[]; agents: Choice[]; phones: Choice[] } {
  const { options, loading } = useRefOptions(['mostrador-labels', 'agentes', 'telefonos'], enabled);
  return useMemo(() => {
    const of = (key: string, label: (o: RefOption) => string = (o) => o.label) =>
      options.filter((o) => o.key === key).map((o) => ({ value: o.id, label: label(o) }));
    const labels = of('mostrador-labels');
    const agents = of('agentes');
    const phones = of('telefonos', (o) => phoneLabel(o.label));
    const byId = (list: Choice[]) => {
      const map = new Map(list.map((c) => [c.value, c.label]));
      return (id: string) => map.get(id);
    };
    return { names: { label: byId(labels), agent: byId(agents), phone: byId(phones), loading }, labels, agents, phones };
  }, [options, loading]);
}
