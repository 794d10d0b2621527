import { templateDeliveryStatuses, templateDeliveryStatusLabels } from '@mostrador/contract';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { screen } from './template-messages-logs-screen';
import { useTemplateNames } from './api';
import { HistoryFilterBar } from '../../components/crud/history-filter-bar';
import { emptyHistoryFilters, type HistoryFilterValues, historyApiFilters, historyFiltersFromParams, withHistoryFilters } from '../../components/crud/history-filters';

/**
 * /marketing/historial-plantillas (decision 0042): every template message, newest first, by
 * status, template and date (kept in the address), searched by name or phone, each with a link
 * to its chat; «Exportar CSV» takes what the list shows.
 */
export function TemplateHistoryPage() {
  const [params, setParams] = useSearchParams();
  const values = historyFiltersFromParams(params, templateDeliveryStatuses);
  const names = useTemplateNames();
  const change = (changes: Partial<HistoryFilterValues>) => setParams((prev) => withHistoryFilters(prev, changes));
  const clear = () => setParams((prev) => withHistoryFilters(prev, emptyHistoryFilters));
  return (
    <ResourceListPage
      config={screen}
      filters={historyApiFilters(values, true)}
      filterBar={
        <HistoryFilterBar values={values} onChange={change} onClear={clear} statuses={templateDeliveryStatusLabels} templates={names.data ?? []} />
      }
    />
  );
}

export default TemplateHistoryPage;
