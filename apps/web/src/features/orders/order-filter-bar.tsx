import { orderStatusLabels } from '@mostrador/contract';
import { DateRangeFilter, FilterBar, FilterSelect, optionsOf } from '../../components/crud/filter-bar';
import { type OrderFilterValues, orderFilterCount, orderRangeError } from './order-filters';

export interface OrderFilterBarProps {
  values: OrderFilterValues;
  onChange: (changes: Partial<OrderFilterValues>) => void;
  onClear: () => void;
}

/**
 * /ordenes: status and a date range of placement (the code, customer or phone go in the list's
 * search box). On a phone the bar folds behind a Filtros button (open at first when one is set).
 */
export function OrderFilterBar({ values, onChange, onClear }: OrderFilterBarProps) {
  return (
    <FilterBar active={orderFilterCount(values)} onClear={onClear} testId="order-filter-bar">
      <FilterSelect label="Estado" value={values.status} options={optionsOf(orderStatusLabels)} onChange={(status) => onChange({ status: status as OrderFilterValues['status'] })} />
      <DateRangeFilter from={values.from} to={values.to} onChange={onChange} error={orderRangeError(values)} />
    </FilterBar>
  );
}
