import { type DriveFileOut, driveLimits, driveSuggestedFolders, formatBytes } from '@mostrador/contract';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import GridViewIcon from '@mui/icons-material/GridView';
import LinkIcon from '@mui/icons-material/Link';
import MoreVert from '@mui/icons-material/MoreVert';
import ViewListIcon from '@mui/icons-material/ViewList';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type DragEvent, type FormEvent, useDeferredValue, useRef, useState } from 'react';
import { formatInstant } from '../../components/crud/cell-value';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { copyText } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { driveTooBig, uploadToDrive, useDeleteDriveFile, useDriveFiles, useDriveFolders, useDriveInvalidate, useUpdateDriveFile } from './api';
import { DriveIcon, DriveThumb, describeFile, FolderChips, DriveSearchField } from './drive-files';

const PAGE = 24;

interface Upload {
  key: number;
  name: string;
  size: number;
  sent: number;
  status: 'uploading' | 'done' | 'error';
  msg?: string;
}

/** Rename or move one file: the name, or the folder (an existing one or a new one). */
function EditDialog({ file, mode, folders, onClose }: { file: DriveFileOut | null; mode: 'rename' | 'move'; folders: string[]; onClose: () => void }) {
  const update = useUpdateDriveFile();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [shown, setShown] = useState<string | null>(null);
  if (file && shown !== `${file._id}:${mode}`) {
    setShown(`${file._id}:${mode}`);
    setValue(mode === 'rename' ? file.name : file.folder);
    setError(undefined);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    update.mutate(
      { id: file._id, ...(mode === 'rename' ? { name: value } : { folder: value }) },
      {
        onSuccess: onClose,
        onError: (e) => setError(e instanceof ApiError ? e.message : 'No se pudo guardar'),
      },
    );
  };
  const title = mode === 'rename' ? 'Renombrar archivo' : 'Mover a una carpeta';
  return (
    <Dialog open={!!file} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="drive-edit-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="drive-edit-title">{title}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          {mode === 'rename' ? (
            <TextField label="Nombre" value={value} onChange={(e) => setValue(e.target.value)} error={!!error} helperText={error} autoFocus fullWidth />
          ) : (
            <Autocomplete
              freeSolo
              options={folders}
              inputValue={value}
              onInputChange={(_, v) => setValue(v)}
              renderInput={(params) => <TextField {...params} label="Carpeta" autoFocus error={!!error} helperText={error ?? 'Elige una o escribe una nueva; vacía: sin carpeta'} />}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {mode === 'rename' ? 'Renombrar' : 'Mover'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * /drive, the company's media library (issue 15, decision 0056): upload by button or by dropping
 * files (each with its progress), the files in a grid with thumbnails or a list, search, folders,
 * rename, move, delete and «Copiar enlace» (the public address a message sends).
 */
export function DrivePage() {
  const { can } = usePermissions();
  const confirm = useConfirm();
  const [search, setSearch] = useState('');
  const filter = useDeferredValue(search);
  const [folder, setFolder] = useState<string | undefined>();
  const [newFolders, setNewFolders] = useState<string[]>([]);
  const [page, setPage] = useState(1);
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; file: DriveFileOut } | null>(null);
  const [editing, setEditing] = useState<{ file: DriveFileOut; mode: 'rename' | 'move' } | null>(null);
  const [naming, setNaming] = useState(false);
  const [folderName, setFolderName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const counter = useRef(0);
  const files = useDriveFiles({ filter, folder, page, limit: PAGE });
  const folders = useDriveFolders();
  const invalidate = useDriveInvalidate();
  const remove = useDeleteDriveFile();
  const mayUpload = can('messaging', 'create');
  const folderNames = [...new Set([...driveSuggestedFolders, ...(folders.data?.payload ?? []).map((f) => f.name).filter(Boolean), ...newFolders])];

  const change = (key: number, patch: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
  const start = (list: FileList | File[]) => {
    const target = folder ?? '';
    for (const file of Array.from(list)) {
      const key = ++counter.current;
      const tooBig = driveTooBig(file);
      setUploads((u) => [{ key, name: file.name, size: file.size, sent: 0, status: tooBig ? 'error' : 'uploading', msg: tooBig }, ...u]);
      if (tooBig) continue;
      uploadToDrive(file, target, (sent) => change(key, { sent }))
        .then((answer) => {
          change(key, { status: 'done', sent: 1, msg: answer.msg });
          void invalidate();
        })
        .catch((error: unknown) => change(key, { status: 'error', msg: error instanceof ApiError ? error.message : 'No se pudo subir: revisa la conexión' }));
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (mayUpload && event.dataTransfer.files.length) start(event.dataTransfer.files);
  };
  const askDelete = async (file: DriveFileOut) => {
    const ok = await confirm({
      title: 'Eliminar archivo',
      message: `«${file.name}» deja de estar en Drive y su enlace deja de funcionar: los mensajes ya enviados no cambian.`,
      acceptLabel: 'Eliminar',
      destructive: true,
    });
    if (ok) remove.mutate(file._id);
  };
  const pickFolder = (f: string | undefined) => {
    setFolder(f);
    setPage(1);
  };

  const rows = files.data?.payload ?? [];
  const actions = (file: DriveFileOut) => (
    <Box sx={{ display: 'flex', alignItems: 'center' }}>
      <Tooltip title="Copiar enlace">
        <IconButton size="small" aria-label={`Copiar enlace de ${file.name}`} onClick={() => void copyText(file.url, 'Enlace copiado')}>
          <LinkIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <IconButton size="small" aria-label={`Más acciones de ${file.name}`} onClick={(e) => setMenu({ anchor: e.currentTarget, file })}>
        <MoreVert fontSize="small" />
      </IconButton>
    </Box>
  );
  const uploader = (file: DriveFileOut) => file.uploadedBy?.name || '—';

  return (
    <Box
      onDragOver={(e) => {
        if (!mayUpload) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
      sx={{ position: 'relative', minHeight: '60vh' }}
    >
      <PageHeader
        title="Drive"
        subtitle="Imágenes, documentos, audios y videos de la compañía, con un enlace público para enviarlos por WhatsApp, Messenger y Telegram."
        actions={
          mayUpload && (
            <Button variant="contained" startIcon={<CloudUploadOutlined />} onClick={() => input.current?.click()}>
              Subir archivos
            </Button>
          )
        }
      />
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Archivos para subir"
        accept="image/jpeg,image/png,image/webp,image/gif,video/mp4,video/3gpp,audio/*,application/pdf,text/plain,text/csv,.docx,.xlsx,.csv,.txt"
        onChange={(e) => {
          if (e.target.files?.length) start(e.target.files);
          e.target.value = '';
        }}
      />
      {mayUpload && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Arrastra archivos aquí o usa «Subir archivos»{folder ? ` (van a «${folder}»)` : ''}. Límites de WhatsApp: imágenes {formatBytes(driveLimits.image)}, audios y videos{' '}
          {formatBytes(driveLimits.video)}, documentos {formatBytes(driveLimits.document)}.
        </Typography>
      )}

      {uploads.length > 0 && (
        <Card variant="outlined" sx={{ mb: 2, p: 1.5, display: 'grid', gap: 1 }} aria-label="Subidas">
          <Box sx={{ display: 'flex', alignItems: 'center' }}>
            <Typography variant="subtitle2" sx={{ flex: 1 }}>
              Subidas
            </Typography>
            {uploads.every((u) => u.status !== 'uploading') && (
              <Button size="small" onClick={() => setUploads([])}>
                Limpiar
              </Button>
            )}
          </Box>
          {uploads.map((u) => (
            <Box key={u.key} data-testid="drive-upload" sx={{ display: 'grid', gap: 0.25 }}>
              <Typography variant="body2" noWrap>
                {u.name} · {formatBytes(u.size)}
              </Typography>
              {u.status === 'uploading' && <LinearProgress variant="determinate" value={Math.round(u.sent * 100)} aria-label={`Subiendo ${u.name}`} />}
              {u.msg && (
                <Typography variant="caption" color={u.status === 'error' ? 'error' : 'success.main'} role={u.status === 'error' ? 'alert' : undefined}>
                  {u.msg}
                </Typography>
              )}
            </Box>
          ))}
        </Card>
      )}

      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center', mb: 1.5 }}>
        <DriveSearchField
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          sx={{ flex: '1 1 220px', maxWidth: 420 }}
        />
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v) => v && setView(v)} aria-label="Vista">
          <ToggleButton value="grid" aria-label="Ver en cuadrícula">
            <GridViewIcon fontSize="small" />
          </ToggleButton>
          <ToggleButton value="list" aria-label="Ver como lista">
            <ViewListIcon fontSize="small" />
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box sx={{ mb: 2 }}>
        <FolderChips
          folders={folders.data?.payload ?? []}
          value={folder}
          onChange={pickFolder}
          extraFolders={newFolders}
          extra={
            mayUpload && (
              <Chip icon={<CreateNewFolderOutlined />} label="Nueva carpeta" variant="outlined" onClick={() => setNaming(true)} />
            )
          }
        />
      </Box>

      {files.isError && !files.data && (
        <Alert severity="warning" action={<Button onClick={() => files.refetch()}>Reintentar</Button>}>
          No se pudieron leer los archivos de Drive.
        </Alert>
      )}
      {files.isLoading && (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 2 }} aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
            <Skeleton key={i} variant="rounded" height={190} />
          ))}
        </Box>
      )}
      {files.data && rows.length === 0 && (
        <Box sx={{ textAlign: 'center', py: 6, px: 2, border: 1, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 2 }}>
          <CloudUploadOutlined sx={{ fontSize: 48, color: 'text.disabled' }} />
          <Typography sx={{ mt: 1 }}>
            {filter || folder !== undefined ? 'Ningún archivo coincide con la búsqueda o la carpeta.' : 'Todavía no hay archivos en Drive.'}
          </Typography>
          {mayUpload && !filter && (
            <Typography variant="body2" color="text.secondary">
              Sube fotos de productos, catálogos o listas de precios para enviarlos desde los chats.
            </Typography>
          )}
        </Box>
      )}

      {rows.length > 0 && view === 'grid' && (
        <Box component="ul" aria-label="Archivos" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(180px, 1fr))' }, gap: 2 }}>
          {rows.map((file) => (
            <Card component="li" key={file._id} variant="outlined" aria-label={file.name} sx={{ p: 1, minWidth: 0 }}>
              <Box component="a" href={file.path} target="_blank" rel="noopener" sx={{ display: 'block' }} aria-label={`Abrir ${file.name}`}>
                <DriveThumb file={file} />
              </Box>
              <Box sx={{ display: 'flex', alignItems: 'flex-start', mt: 0.5, gap: 0.5 }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" noWrap title={file.name} sx={{ fontWeight: 500 }}>
                    {file.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="div" noWrap>
                    {describeFile(file)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="div" noWrap title={uploader(file)}>
                    {uploader(file)}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" component="div" noWrap>
                    {formatInstant(file.createdAt)}
                  </Typography>
                  {file.folder && folder === undefined && <Chip size="small" label={file.folder} sx={{ mt: 0.5, maxWidth: '100%' }} />}
                </Box>
              </Box>
              <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>{actions(file)}</Box>
            </Card>
          ))}
        </Box>
      )}
      {rows.length > 0 && view === 'list' && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Archivos">
            <TableHead>
              <TableRow>
                <TableCell>Nombre</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Carpeta</TableCell>
                <TableCell>Tamaño</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Subido por</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Fecha</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                    Acciones
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((file) => (
                <TableRow key={file._id}>
                  <TableCell sx={{ maxWidth: { xs: 150, sm: 280 } }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                      {file.kind === 'image' ? (
                        <Box component="img" src={file.path} alt="" loading="lazy" sx={{ width: 32, height: 32, objectFit: 'cover', borderRadius: 0.5, flexShrink: 0 }} />
                      ) : (
                        <DriveIcon file={file} size={28} />
                      )}
                      <Typography variant="body2" noWrap title={file.name}>
                        {file.name}
                      </Typography>
                    </Box>
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{file.folder || '—'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatBytes(file.size)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{uploader(file)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, whiteSpace: 'nowrap' }}>{formatInstant(file.createdAt)}</TableCell>
                  <TableCell align="right">{actions(file)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {(files.data?.totalPages ?? 1) > 1 && (
        <Pagination count={files.data?.totalPages} page={page} onChange={(_, p) => setPage(p)} sx={{ mt: 2, display: 'flex', justifyContent: 'center' }} />
      )}

      <Menu anchorEl={menu?.anchor} open={!!menu} onClose={() => setMenu(null)}>
        <MenuItem component="a" href={menu?.file.path} target="_blank" rel="noopener" onClick={() => setMenu(null)}>
          Abrir
        </MenuItem>
        <MenuItem
          onClick={() => {
            if (menu) void copyText(menu.file.url, 'Enlace copiado');
            setMenu(null);
          }}
        >
          Copiar enlace
        </MenuItem>
        {can('messaging', 'update') && (
          <MenuItem
            onClick={() => {
              if (menu) setEditing({ file: menu.file, mode: 'rename' });
              setMenu(null);
            }}
          >
            Renombrar
          </MenuItem>
        )}
        {can('messaging', 'update') && (
          <MenuItem
            onClick={() => {
              if (menu) setEditing({ file: menu.file, mode: 'move' });
              setMenu(null);
            }}
          >
            Mover a una carpeta
          </MenuItem>
        )}
        {can('messaging', 'delete') && (
          <MenuItem
            sx={{ color: 'error.main' }}
            onClick={() => {
              if (menu) void askDelete(menu.file);
              setMenu(null);
            }}
          >
            Eliminar
          </MenuItem>
        )}
      </Menu>
      <EditDialog file={editing?.file ?? null} mode={editing?.mode ?? 'rename'} folders={folderNames} onClose={() => setEditing(null)} />
      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="xs" aria-labelledby="drive-folder-title">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const name = folderName.trim();
            if (name) {
              setNewFolders((f) => [...new Set([...f, name])]);
              pickFolder(name);
            }
            setFolderName('');
            setNaming(false);
          }}
        >
          <DialogTitle id="drive-folder-title">Nueva carpeta</DialogTitle>
          <DialogContent sx={{ pt: '8px !important' }}>
            <TextField
              label="Nombre de la carpeta"
              value={folderName}
              onChange={(e) => setFolderName(e.target.value.replace(/[/\\]/g, ''))}
              slotProps={{ htmlInput: { maxLength: 80 } }}
              helperText="Los archivos que subas ahora van a esta carpeta"
              autoFocus
              fullWidth
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setNaming(false)}>Cancelar</Button>
            <Button type="submit" variant="contained">
              Crear
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      {dragging && (
        <Box
          sx={{
            position: 'absolute',
            inset: 0,
            bgcolor: 'rgba(25, 118, 210, 0.08)',
            border: 2,
            borderStyle: 'dashed',
            borderColor: 'primary.main',
            borderRadius: 2,
            display: 'grid',
            placeItems: 'center',
            pointerEvents: 'none',
          }}
        >
          <Typography variant="h6" color="primary">
            Suelta los archivos para subirlos{folder ? ` a «${folder}»` : ''}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

export default DrivePage;
