import type { DriveFileOut, DriveKind } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useDeferredValue, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDriveFiles, useDriveFolders } from './api';
import { DriveThumb, describeFile, FolderChips, DriveSearchField } from './drive-files';

const PAGE = 12;

/**
 * «Desde Drive»: the company's files to pick one from (search, folder, thumbnails), for the chat
 * composer and the template media headers (decision 0056). `kinds` keeps to the kinds the
 * caller can send; `caption` adds the optional text sent with the file.
 */
export function DrivePicker({
  open,
  onClose,
  onPick,
  kind,
  title = 'Elegir desde Drive',
  pickLabel = 'Elegir',
  caption = false,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (file: DriveFileOut, caption: string) => void;
  /** Only files of this kind (a template's image header takes images). */
  kind?: DriveKind;
  title?: string;
  pickLabel?: string;
  caption?: boolean;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [search, setSearch] = useState('');
  const filter = useDeferredValue(search);
  const [folder, setFolder] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<DriveFileOut | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    if (open) {
      setSearch('');
      setFolder(undefined);
      setPage(1);
      setChosen(null);
      setText('');
    }
  }, [open]);
  const files = useDriveFiles({ filter, folder, kind, page, limit: PAGE });
  const folders = useDriveFolders();
  const rows = files.data?.payload ?? [];
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="drive-picker-title">
      <DialogTitle id="drive-picker-title">{title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5, alignContent: 'start' }}>
        <DriveSearchField
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <FolderChips
          folders={folders.data?.payload ?? []}
          value={folder}
          onChange={(f) => {
            setFolder(f);
            setPage(1);
          }}
        />
        {files.isError && !files.data && (
          <Alert severity="warning" action={<Button onClick={() => files.refetch()}>Reintentar</Button>}>
            No se pudieron leer los archivos de Drive.
          </Alert>
        )}
        {files.isLoading && (
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))', gap: 1.5 }}>
            {Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
              <Skeleton key={i} variant="rounded" height={150} />
            ))}
          </Box>
        )}
        {files.data && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            {filter || folder !== undefined ? 'Ningún archivo coincide con la búsqueda.' : 'Drive está vacío. '}
            {!filter && folder === undefined && (
              <RouterLink to="/drive" onClick={onClose}>
                Sube archivos en Drive
              </RouterLink>
            )}
          </Typography>
        )}
        <Box role="listbox" aria-label="Archivos de Drive" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))', gap: 1.5 }}>
          {rows.map((file) => {
            const selected = chosen?._id === file._id;
            return (
              <ButtonBase
                key={file._id}
                role="option"
                aria-selected={selected}
                aria-label={file.name}
                onClick={() => setChosen(file)}
                onDoubleClick={() => onPick(file, text)}
                sx={{
                  display: 'block',
                  textAlign: 'left',
                  borderRadius: 1,
                  border: 2,
                  borderColor: selected ? 'primary.main' : 'transparent',
                  p: 0.5,
                }}
              >
                <DriveThumb file={file} height={100} />
                <Typography variant="body2" noWrap title={file.name} sx={{ mt: 0.5 }}>
                  {file.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {describeFile(file)}
                </Typography>
              </ButtonBase>
            );
          })}
        </Box>
        {(files.data?.totalPages ?? 1) > 1 && (
          <Pagination count={files.data?.totalPages} page={page} onChange={(_, p) => setPage(p)} size="small" sx={{ justifySelf: 'center' }} />
        )}
        {caption && chosen && (
          <TextField label="Texto (opcional)" value={text} onChange={(e) => setText(e.target.value)} multiline minRows={1} maxRows={4} size="small" sx={{ mt: 1 }} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" disabled={!chosen} onClick={() => chosen && onPick(chosen, text)}>
          {pickLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
