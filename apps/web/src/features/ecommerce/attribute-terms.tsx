import { countries, resources } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { useSaveField } from '../../components/crud/use-resource';
import { usePermissions } from '../../lib/permissions';

type Term = { _id?: string; name: string };

/** The attribute's name; on phones (no store column) its store's country under it. */
export function AttributeName({ attribute }: { attribute: ResourceRecord }) {
  const country = countries.find((c) => c.code === attribute.country)?.name;
  return (
    <>
      {String(attribute.nombre ?? '')}
      {country && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
          {country}
        </Typography>
      )}
    </>
  );
}

/** How many values show before «+N». */
const SHOWN = 12;

/**
 * An attribute's values (terms) on its row: every value as a chip; with e-commerce · update, a
 * chip's ✕ removes it and «Agregar valor» adds one (Enter saves, Escape cancels), saved at once
 * with PUT {terms}. A value the store knows keeps its store id.
 */
export function AttributeTerms({ attribute }: { attribute: ResourceRecord }) {
  const terms = (Array.isArray(attribute.terms) ? attribute.terms : []) as Term[];
  const { can } = usePermissions();
  const editable = can('ecommerce', 'update');
  const save = useSaveField(resources['ecommerces-attributes']);
  const [adding, setAdding] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [all, setAll] = useState(false);
  const name = String(attribute.nombre ?? '');
  const put = (next: Term[], then?: () => void) => save.mutate({ id: attribute._id, patch: { terms: next } }, { onSuccess: then });
  const add = () => {
    const value = text.trim();
    if (!value) return setAdding(false);
    if (value.length > 120) return setError('Como máximo 120 caracteres');
    if (terms.some((t) => t.name.toLocaleLowerCase('es') === value.toLocaleLowerCase('es'))) return setError('Ese valor ya está');
    put([...terms, { name: value }], () => {
      setText('');
      setError('');
    });
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    } else if (event.key === 'Escape') {
      setAdding(false);
      setText('');
      setError('');
    }
  };
  const shown = all ? terms : terms.slice(0, SHOWN);
  return (
    <Box
      sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', alignItems: 'center', cursor: 'default' }}
      onClick={(event) => event.stopPropagation()}
      role="group"
      aria-label={`Valores de ${name}`}
    >
      {terms.length === 0 && !adding && <Box component="span" sx={{ color: 'text.secondary', mr: 0.5 }}>Sin valores</Box>}
      {shown.map((term) => (
        <Chip
          key={term._id ?? term.name}
          size="small"
          variant="outlined"
          label={term.name}
          onDelete={editable && !save.isPending ? () => put(terms.filter((t) => t !== term)) : undefined}
          title={term._id ? `Id en la tienda: ${term._id}` : 'Solo en Mostrador'}
        />
      ))}
      {terms.length > SHOWN && (
        <Chip size="small" label={all ? 'Ver menos' : `+${terms.length - SHOWN}`} onClick={() => setAll((v) => !v)} />
      )}
      {editable &&
        (adding ? (
          <TextField
            size="small"
            autoFocus
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
            }}
            onKeyDown={onKey}
            onBlur={() => !text.trim() && setAdding(false)}
            error={!!error}
            helperText={error || 'Enter para agregar'}
            fullWidth={false}
            disabled={save.isPending}
            sx={{ width: 150 }}
            slotProps={{ htmlInput: { 'aria-label': `Nuevo valor de ${name}`, maxLength: 121 } }}
          />
        ) : (
          <Chip size="small" color="primary" variant="outlined" icon={<AddIcon fontSize="small" />} label="Agregar valor" onClick={() => setAdding(true)} aria-label={`Agregar valor a ${name}`} />
        ))}
    </Box>
  );
}
