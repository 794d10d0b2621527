import type { LeadPlatform, LeadStatus } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import Autorenew from '@mui/icons-material/Autorenew';
import ListAlt from '@mui/icons-material/ListAlt';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import PersonAddAlt1 from '@mui/icons-material/PersonAddAlt1';
import RemoveShoppingCart from '@mui/icons-material/RemoveShoppingCart';
import ShoppingBag from '@mui/icons-material/ShoppingBag';
import WhatsApp from '@mui/icons-material/WhatsApp';

/** The lead screens of SPEC §2, in its order: each lists the leads with its filter. */
export type LeadBucketSlug = LeadStatus | 'whatsapp' | 'todos';

export interface LeadBucket {
  slug: LeadBucketSlug;
  /** The Spanish route (SPEC §2). */
  path: `/lead/${LeadBucketSlug}`;
  /** Drawer label. */
  label: string;
  icon: SvgIconComponent;
  title: string;
  subtitle: string;
  emptyMessage: string;
  /** What the list always asks for (`GET /api/leads?status=sin-asignar`). */
  filters: { status?: LeadStatus; platform?: LeadPlatform };
}

const stage = 'No hay leads en esta etapa';

/**
 * Declared once: the registry makes a route and a drawer entry of each, and the lead screens
 * a list of each. Kept free of the contract's runtime (types only): the drawer loads it.
 */
export const leadBuckets: readonly LeadBucket[] = [
  {
    slug: 'sin-asignar',
    path: '/lead/sin-asignar',
    label: 'Sin asignar',
    icon: PersonAddAlt1,
    title: 'Leads sin asignar',
    subtitle: 'Leads nuevos que todavía no tienen un agente',
    emptyMessage: stage,
    filters: { status: 'sin-asignar' },
  },
  {
    slug: 're-conectar',
    path: '/lead/re-conectar',
    label: 'Re-conectar',
    icon: Autorenew,
    title: 'Leads por re-conectar',
    subtitle: 'Leads con los que hay que retomar la conversación',
    emptyMessage: stage,
    filters: { status: 're-conectar' },
  },
  {
    slug: 'informado-al-agente',
    path: '/lead/informado-al-agente',
    label: 'Informado al agente',
    icon: NotificationsActive,
    title: 'Leads informados al agente',
    subtitle: 'Leads que un agente ya tiene para su seguimiento',
    emptyMessage: stage,
    filters: { status: 'informado-al-agente' },
  },
  {
    slug: 'compra-realizada',
    path: '/lead/compra-realizada',
    label: 'Compra realizada',
    icon: ShoppingBag,
    title: 'Compras realizadas',
    subtitle: 'Leads que concretaron su compra',
    emptyMessage: stage,
    filters: { status: 'compra-realizada' },
  },
  {
    slug: 'compra-fallida',
    path: '/lead/compra-fallida',
    label: 'Compra fallida',
    icon: RemoveShoppingCart,
    title: 'Compras fallidas',
    subtitle: 'Leads que no llegaron a comprar',
    emptyMessage: stage,
    filters: { status: 'compra-fallida' },
  },
  {
    slug: 'whatsapp',
    path: '/lead/whatsapp',
    label: 'WhatsApp',
    icon: WhatsApp,
    title: 'Leads de WhatsApp',
    subtitle: 'Todos los leads que escribieron por WhatsApp',
    emptyMessage: 'Aún no hay leads de WhatsApp',
    filters: { platform: 'whatsapp' },
  },
  {
    slug: 'todos',
    path: '/lead/todos',
    label: 'Todos los leads',
    icon: ListAlt,
    title: 'Todos los leads',
    subtitle: 'Busca y filtra los leads de la compañía, o las personas detrás de ellos',
    emptyMessage: 'Aún no hay leads',
    filters: {},
  },
];

export function bucketOf(slug: LeadBucketSlug): LeadBucket {
  const bucket = leadBuckets.find((b) => b.slug === slug);
  if (!bucket) throw new Error(`Etapa de lead desconocida: ${slug}`);
  return bucket;
}

/** The bucket that lists leads of a status. */
export const statusPath = (status: LeadStatus): string => `/lead/${status}`;
