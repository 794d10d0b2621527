import GroupAdd from '@mui/icons-material/GroupAdd';
import LabelOutlined from '@mui/icons-material/LabelOutlined';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { usePermissions } from '../../lib/permissions';
import { AudienceDialog, SegmentLabelsDialog } from './bulk-dialogs';
import { CleanLeadDrawer } from './clean-lead-drawer';
import { LeadFilterBar } from './lead-filter-bar';
import { apiFilters, emptyLeadFilters, filtersFromParams, type LeadFilterValues, withFilters } from './lead-filters';
import { bucketScreen, cleanLeadsScreen } from './lead-screens';

/** `?vista=personas`: the clean leads (one per person) instead of the leads. */
const VIEW_PARAM = 'vista';
const PEOPLE_VIEW = 'personas';

/**
 * /lead/todos: every lead, with the filter bar (kept in the address), or the people behind
 * them (clean leads) with the same filters, their detail and two bulk actions.
 */
export function AllLeadsPage() {
  const [params, setParams] = useSearchParams();
  const permissions = usePermissions();
  const values = filtersFromParams(params);
  const filters = apiFilters(values);
  const people = params.get(VIEW_PARAM) === PEOPLE_VIEW;
  const [detailId, setDetailId] = useState<string>();
  const [dialog, setDialog] = useState<'segment' | 'audience' | null>(null);
  const leadsConfig = useMemo(() => bucketScreen('todos'), []);
  const peopleConfig = useMemo(() => cleanLeadsScreen((row: ResourceRecord) => setDetailId(row._id)), []);

  // A new history entry per change: the back button undoes it.
  const change = (changes: Partial<LeadFilterValues>) => setParams((prev) => withFilters(prev, changes));
  const clear = () => setParams((prev) => withFilters(prev, emptyLeadFilters));
  const setPeople = (on: boolean) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (on) next.set(VIEW_PARAM, PEOPLE_VIEW);
      else next.delete(VIEW_PARAM);
      next.delete('page');
      return next;
    });

  const canBulk = permissions.can('leads', 'update');
  const headerActions = (
    <>
      <FormControlLabel
        control={<Switch checked={people} onChange={(event) => setPeople(event.target.checked)} />}
        label="Personas (leads limpios)"
        sx={{ mr: 1 }}
      />
      {people && canBulk && (
        <>
          <Button variant="outlined" startIcon={<LabelOutlined />} onClick={() => setDialog('segment')}>
            Etiquetar segmento
          </Button>
          <Button variant="outlined" startIcon={<GroupAdd />} onClick={() => setDialog('audience')}>
            Enviar a audiencia
          </Button>
        </>
      )}
    </>
  );

  return (
    <>
      <ResourceListPage
        key={people ? 'people' : 'leads'}
        config={people ? peopleConfig : leadsConfig}
        filters={filters}
        filterBar={<LeadFilterBar values={values} onChange={change} onClear={clear} />}
        headerActions={headerActions}
        onRowClick={people ? (row) => setDetailId(row._id) : undefined}
      />
      {people && <CleanLeadDrawer id={detailId} onClose={() => setDetailId(undefined)} />}
      <SegmentLabelsDialog open={dialog === 'segment'} onClose={() => setDialog(null)} />
      <AudienceDialog open={dialog === 'audience'} onClose={() => setDialog(null)} />
    </>
  );
}

export default AllLeadsPage;
