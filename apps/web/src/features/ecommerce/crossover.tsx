import { ecommerceProductStatusLabels } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatCount } from '../../i18n';
import { formatMoney, moneyOf } from '../../lib/money';
import { type CrossoverSide, useCrossover } from './api';
import { productPath } from './product-list-extras';
import { countryName } from './sync-progress';

type Field = 'name' | 'price' | 'stock' | 'status' | 'variations';

const fieldLabels: Record<Field, string> = { name: 'Nombre', price: 'Precio', stock: 'Stock', status: 'Estado', variations: 'Variaciones' };

function shownValue(side: CrossoverSide, field: Field): ReactNode {
  switch (field) {
    case 'price': {
      const money = moneyOf({ country: side.country });
      const sale = side.regularPrice !== undefined && side.regularPrice > side.price;
      return (
        <>
          {formatMoney(side.price, money)}
          {sale && (
            <Box component="span" sx={{ display: 'block', color: 'text.secondary', textDecoration: 'line-through', fontSize: '0.75rem' }}>
              {formatMoney(side.regularPrice as number, money)}
            </Box>
          )}
        </>
      );
    }
    case 'stock':
    case 'variations':
      return formatCount(side[field]);
    case 'status':
      return ecommerceProductStatusLabels[side.status] ?? side.status;
    default:
      return side.name;
  }
}

/**
 * The product beside the same SKU in the other country stores (GET /ecommerces/crossover/country/
 * {country}): one column per store, one row per field; what differs from this product is marked
 * (colour and the words «distinto»), a store without the SKU says so.
 */
export function CrossoverTable({ country, sku, productId }: { country: string; sku: string; productId: string }) {
  const crossover = useCrossover(country, sku);
  if (crossover.isLoading) return <Skeleton variant="rounded" height={180} />;
  if (crossover.isError) return <Alert severity="warning">No se pudo comparar con las otras tiendas.</Alert>;
  const row = crossover.data;
  if (!row) return <Alert severity="info">Este producto todavía no se puede comparar: guarda su SKU y vuelve a intentarlo.</Alert>;
  const sides = [row.product, ...row.others];
  const differs = (side: CrossoverSide, field: Field) => side._id !== row.product._id && side[field] !== row.product[field];
  const noOthers = row.others.length === 0 && row.missingIn.length === 0;
  const diffCount = row.differences.filter((d) => d !== 'tiendas').length;
  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      {noOthers ? (
        <Typography variant="body2" color="text.secondary">
          Solo hay tienda en {countryName(row.product.country)}: no hay con qué comparar.
        </Typography>
      ) : (
        <Typography variant="body2" color="text.secondary" data-testid="crossover-summary">
          {row.others.length === 0
            ? `Ninguna otra tienda tiene el SKU ${sku}.`
            : diffCount === 0
              ? 'Igual en todas las tiendas que tienen este SKU.'
              : `Resaltado: lo que difiere de ${countryName(row.product.country)} (${row.differences
                  .filter((d) => d !== 'tiendas')
                  .map((d) => fieldLabels[d as Field]?.toLowerCase() ?? d)
                  .join(', ')}).`}
        </Typography>
      )}
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={`${sku} en cada tienda`} sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Tienda</TableCell>
              {sides.map((side) => (
                <TableCell key={side._id} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {side._id === productId ? (
                    `${countryName(side.country)} (este)`
                  ) : (
                    <Link component={RouterLink} to={productPath(side._id)}>
                      {countryName(side.country)}
                    </Link>
                  )}
                </TableCell>
              ))}
              {row.missingIn.map((c) => (
                <TableCell key={c} sx={{ fontWeight: 600, color: 'text.secondary' }}>
                  {countryName(c)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(Object.keys(fieldLabels) as Field[]).map((field) => (
              <TableRow key={field}>
                <TableCell component="th" scope="row" sx={{ color: 'text.secondary' }}>
                  {fieldLabels[field]}
                </TableCell>
                {sides.map((side) => {
                  const different = differs(side, field);
                  return (
                    <TableCell
                      key={side._id}
                      data-differs={different || undefined}
                      sx={{ bgcolor: different ? (theme) => alpha(theme.palette.warning.main, 0.14) : undefined, fontWeight: different ? 600 : undefined, minWidth: 90, overflowWrap: 'anywhere' }}
                    >
                      {shownValue(side, field)}
                      {different && (
                        <Box component="span" sx={{ display: 'block', fontSize: '0.7rem', fontWeight: 400 }}>
                          distinto
                        </Box>
                      )}
                    </TableCell>
                  );
                })}
                {field === 'name' &&
                  row.missingIn.map((c) => (
                    <TableCell key={c} rowSpan={5} sx={{ color: 'text.secondary', verticalAlign: 'top' }} data-testid={`missing-${c}`}>
                      No tiene este SKU
                    </TableCell>
                  ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
